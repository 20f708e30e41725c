import ChainPlanCore

extension DiagnosticCode {
    /// CP608 BackwardMigrationStage: a SwiftData migration stage goes to an earlier version.
    ///
    /// Raised by `SwiftDataPlanCheck` (reference swiftdata §7.1 item 1).
    package static let backwardMigrationStage = DiagnosticCode(
        "CP608", name: "BackwardMigrationStage", severity: .error,
        summary: "A migration stage goes to an earlier schema version",
        help: "SwiftData compares each stage's `toVersion` with its `fromVersion` by `versionIdentifier`; a stage whose `toVersion` is the earlier makes the container fail with `SwiftDataError.backwardMigration` (13). Swap the versions, or fix a `versionIdentifier` that was not raised.",
        examples: [
            .project("the stage goes from V2 back to V1", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\""), ("V2", "2.0.0", "var title: String = \"\"\nvar body: String?")],
                                              stages: ".lightweight(fromVersion: V2.self, toVersion: V1.self)"),
            ], input: "Models.swift", expected: 1),
            .project("the stage goes forward", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\""), ("V2", "2.0.0", "var title: String = \"\"\nvar body: String?")],
                                              stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)"),
            ], input: "Models.swift", expected: 0),
        ])
}

extension Diagnostic {
    /// CP608 for a stage from `from` to `to`.
    static func backwardMigrationStage(from: (name: String, identifier: String), to: (name: String, identifier: String),
                                       at location: SourceLocation) -> Diagnostic {
        Diagnostic(.backwardMigrationStage,
                   "this stage goes from '\(from.name)' (\(from.identifier)) back to '\(to.name)' (\(to.identifier)): the container fails with SwiftDataError.backwardMigration (13)",
                   at: location, versions: [from.name, to.name])
    }
}
