import ChainPlanCore

extension DiagnosticCode {
    /// CP120 UnreadableMappingModel: a mapping model cannot be read.
    ///
    /// Raised where the input cannot be read, with the reader's reason: `MappingModelLoading.swift`, `MappingModelReader.swift`.
    package static let unreadableMappingModel = DiagnosticCode(
        "CP120", name: "UnreadableMappingModel", severity: .error,
        summary: "A mapping model cannot be read",
        help: "The `.xcmappingmodel` has no readable `xcmapping.xml`, or its embedded model snapshots cannot be decoded.",
        examples: [
            .project("a mapping model whose xcmapping.xml is not XML", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", "V1 to V2, see the wiki")], expected: 1),
            .project("no mapping model", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}
