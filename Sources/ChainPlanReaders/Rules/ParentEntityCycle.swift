import ChainPlanCore

extension DiagnosticCode {
    /// CP117 ParentEntityCycle: entity inheritance forms a cycle.
    ///
    /// Raised in `ModelValidator.swift`.
    public static let parentEntityCycle = DiagnosticCode(
        "CP117", name: "ParentEntityCycle", severity: .error, unusableInput: true,
        summary: "Entity inheritance forms a cycle",
        help: "An entity is (indirectly) its own parent; no model can be built from it.",
        examples: [
            .project("two entities each the other's parent", files: RuleExampleFixtures.project([
                #"<entity name="Car" parentEntity="Vehicle"/><entity name="Vehicle" parentEntity="Car"/>"#,
            ]), expected: 1),
            .project("a parent without a parent", files: RuleExampleFixtures.project([#"<entity name="Car" parentEntity="Vehicle"/><entity name="Vehicle"/>"#]), expected: 0),
        ])
}
