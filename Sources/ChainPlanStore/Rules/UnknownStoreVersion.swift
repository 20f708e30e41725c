import ChainPlanCore

extension DiagnosticCode {
    /// CP301 UnknownStoreVersion: no model version matches the store.
    ///
    /// Raised in `StoreHashIdentification.swift`, `StoreIdentification.swift`.
    public static let unknownStoreVersion = DiagnosticCode(
        "CP301", name: "UnknownStoreVersion", severity: .error, unusableInput: true,
        summary: "No model version matches the store",
        help: "Neither hashes, identifiers nor structure identify the store's model version. The closest version and the differences are named.",
        examples: [
            .project("the store's tables belong to no version", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                         store: .fixture("V1", rows: 3, sql: ["DROP TABLE ZNOTE", "DELETE FROM Z_PRIMARYKEY", "DELETE FROM Z_METADATA",
                                                              #"CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOTAL FLOAT)"#]),
                         expected: 1),
            .project("a store written for V1", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ])
}
