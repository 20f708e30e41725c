import ChainPlanCore

extension DiagnosticCode {
    /// CP208 StaleMappingModel: a mapping model's embedded model no longer equals the version it names.
    ///
    /// Raised in `MappingMatcher.swift`, `MappingModelLoading.swift`.
    public static let staleMappingModel = DiagnosticCode(
        "CP208", name: "StaleMappingModel", severity: .warning,
        summary: "A mapping model's embedded model no longer equals the version it names",
        help: "The model was edited after the mapping model was made (its embedded snapshot no longer equals the version), or the spec's `mappings` assigns it to a step it was not made for. Core Data matches mapping models by entity hashes and will silently not use it. Recreate the mapping model, or assign it to its own step.",
        examples: [
            .project("the spec assigns the V2 → V3 mapping model to V1 → V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithNumericTitle],
                extra: #", "mappings": {"V1 -> V2": "V2ToV3.xcmappingmodel"}"#)
                + [RuleExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V2", to: "V3"))], expected: 1),
            .project("assigned to the step it was made for", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithNumericTitle],
                extra: #", "mappings": {"V2 -> V3": "V2ToV3.xcmappingmodel"}"#)
                + [RuleExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V2", to: "V3"))], expected: 0),
        ])
}
