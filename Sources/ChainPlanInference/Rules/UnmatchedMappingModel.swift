import ChainPlanCore

extension DiagnosticCode {
    /// CP121 UnmatchedMappingModel: a mapping model matches no step of the chain.
    ///
    /// Raised in `MappingMatcher.swift`, `MappingModelLoading.swift`.
    public static let unmatchedMappingModel = DiagnosticCode(
        "CP121", name: "UnmatchedMappingModel", severity: .warning,
        summary: "A mapping model matches no step of the chain",
        help: "Neither its embedded models nor its stated paths correspond to a step. It is dead weight, or the step it was made for is missing from the chain.",
        examples: [
            .project("a mapping model for V1 → V3, which is not a step (the chain goes through V2)", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("V1ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V3"))], expected: 1),
            .project("a mapping model for the step V1 → V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V2"))], expected: 0),
        ])
}
