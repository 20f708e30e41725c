import ChainPlanCore

extension DiagnosticCode {
    /// CP609 DuplicateSchemaVersion: two schemas of a SwiftData plan have one `versionIdentifier`.
    ///
    /// Raised by `SwiftDataPlanCheck` (reference swiftdata §7.1 item 1, §8 item 5).
    package static let duplicateSchemaVersion = DiagnosticCode(
        "CP609", name: "DuplicateSchemaVersion", severity: .error,
        summary: "Two schemas of a migration plan have the same versionIdentifier",
        help: "SwiftData finds a stage's schemas by `versionIdentifier`, so two schemas with one version cannot both be reached: a stage naming either may run with the other's model (which one SwiftData picks is unverified). A version identifier reused for a new shape is a known cause of 134504. Give each schema its own version.",
        examples: [
            .project("V2 keeps V1's version 1.0.0", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\""), ("V2", "1.0.0", "var title: String = \"\"\nvar body: String?")], stages: ""),
            ], input: "Models.swift", expected: 1),
            .project("each schema has its own version", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\""), ("V2", "2.0.0", "var title: String = \"\"\nvar body: String?")], stages: ""),
            ], input: "Models.swift", expected: 0),
        ])
}

extension Diagnostic {
    /// CP609 for `second`, which repeats `first`'s `identifier`.
    static func duplicateSchemaVersion(_ second: String, first: String, identifier: String, plan: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.duplicateSchemaVersion,
                   "'\(second)' has version \(identifier), as '\(first)' does: '\(plan)' finds a stage's schemas by version, so a stage naming either may run with the other's model (which one is unverified: reference swiftdata §11.10)",
                   at: location, versions: [first, second])
    }
}
