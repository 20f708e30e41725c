import ChainPlanCore

extension DiagnosticCode {
    /// CP607 StageSchemaNotInPlan: a SwiftData migration stage names a schema version the plan's `schemas` lack.
    ///
    /// Raised by `SwiftDataPlanCheck` (reference swiftdata §7.1 item 1).
    package static let stageSchemaNotInPlan = DiagnosticCode(
        "CP607", name: "StageSchemaNotInPlan", severity: .error,
        summary: "A migration stage names a schema version the plan's schemas lack",
        help: "SwiftData finds each stage's `fromVersion` and `toVersion` among the plan's `schemas` by their `versionIdentifier` (not by type). A stage whose version no listed schema has makes the container fail with `SwiftDataError.unknownSchema` (14) before any store is opened. Add the schema to `schemas`, or fix the stage.",
        examples: [
            .project("a stage reaches V3, which schemas leaves out", files: [
                RuleExample.File("Models.swift", RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\""), ("V2", "2.0.0", "var title: String = \"\"\nvar body: String?"),
                                                                                ("V3", "3.0.0", "var title: String = \"\"\nvar body: String?\nvar pinned: Bool = false")],
                                                                               stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self), .lightweight(fromVersion: V2.self, toVersion: V3.self)")
                    .text.replacingOccurrences(of: "[V1.self, V2.self, V3.self]", with: "[V1.self, V2.self]")),
            ], input: "Models.swift", expected: 1),
            .project("every stage version is listed", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\""), ("V2", "2.0.0", "var title: String = \"\"\nvar body: String?")],
                                              stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)"),
            ], input: "Models.swift", expected: 0),
        ])
}

extension Diagnostic {
    /// CP607 for `schema` (version `identifier`) named by a stage of `plan`.
    static func stageSchemaNotInPlan(_ schema: String, identifier: String, plan: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.stageSchemaNotInPlan,
                   "this stage names '\(schema)' (version \(identifier)), but no schema of '\(plan)'.schemas has that version: the container fails with SwiftDataError.unknownSchema (14)",
                   at: location, versions: [schema])
    }
}
