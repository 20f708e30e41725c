import ChainPlanCore

extension DiagnosticCode {
    /// CP300 UnreadableStore: the store cannot be read.
    ///
    /// Raised where the input cannot be read, with the reader's reason: `MigrationSimulator.swift`, `StoreError.swift`, `StoreReader.swift`.
    package static let unreadableStore = DiagnosticCode(
        "CP300", name: "UnreadableStore", severity: .error, unusableInput: true,
        summary: "The store cannot be read",
        help: "The path is not a SQLite database, is empty, truncated, encrypted, a directory, locked beyond the timeout, or not a Core Data store (no Z_METADATA).",
        examples: [
            .project("the store is not a SQLite database", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), store: .file("not a database"), expected: 1),
            .project("a store written for V1", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ])
}
