import ChainPlanCore

extension DiagnosticCode {
    /// CP209 DataRemoved: a step drops an entity or attribute.
    ///
    /// Raised in `MappingInference.swift`, `PersistentTransient.swift`, `RemovedEntity.swift`, `RemovedProperty.swift`.
    public static let dataRemoved = DiagnosticCode(
        "CP209", name: "DataRemoved", severity: .note,
        summary: "A step drops an entity or attribute",
        help: "The data stored in it is deleted by the migration. Intended or not, a reviewer should know.",
        examples: [
            .versions("an attribute is removed", versions: [RuleExampleFixtures.pinnedWithDefault, RuleExampleFixtures.note], expected: 1),
            .versions("an attribute is added", versions: [RuleExampleFixtures.note, RuleExampleFixtures.pinnedWithDefault], expected: 0),
        ])
}
