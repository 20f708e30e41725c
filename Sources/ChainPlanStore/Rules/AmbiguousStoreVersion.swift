import ChainPlanCore

extension DiagnosticCode {
    /// CP302 AmbiguousStoreVersion: several model versions match the store equally.
    ///
    /// Raised in `StoreHashIdentification.swift`, `StoreIdentification.swift`.
    public static let ambiguousStoreVersion = DiagnosticCode(
        "CP302", name: "AmbiguousStoreVersion", severity: .warning,
        summary: "Several model versions match the store equally",
        help: "The evidence does not single out one version. Supply the compiled model (`--momd`) so the entity hashes decide.",
        examples: [
            .project("V1 and V2 are identical, so a V1 store matches both", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.note]), store: .fixture("V1", rows: 3), expected: 1),
            .project("V2 adds an attribute", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ])
}
