import ChainPlanCore

extension DiagnosticCode {
    /// CP605 MigrationPlanNotChosen: the SwiftData plan to check cannot be told.
    ///
    /// Raised by `SwiftDataChain.choosePlan` when a spec's `plan` names no plan (or several), or
    /// the sources declare several plans and no spec names one.
    package static let migrationPlanNotChosen = DiagnosticCode(
        "CP605", name: "MigrationPlanNotChosen", severity: .error,
        summary: "The SchemaMigrationPlan to check cannot be told",
        help: "chainplan checks the `SchemaMigrationPlan` the app passes to its `ModelContainer`. When the sources declare one, that is it; when they declare several, a spec names it: `{\"swiftdata\": \"Sources/Models\", \"plan\": \"AppMigrationPlan\"}` (its own or its qualified name). Without a plan the chain is every schema in `versionIdentifier` order and no stage is checked.",
        examples: [
            .project("the spec names a plan the sources do not declare", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\"")], stages: ""),
                RuleExample.File("chain.json", #"{"swiftdata": "Models.swift", "plan": "AppPlan"}"#),
            ], expected: 1),
            .project("the spec names the plan", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String = \"\"")], stages: ""),
                RuleExample.File("chain.json", #"{"swiftdata": "Models.swift", "plan": "Plan"}"#),
            ], expected: 0),
        ])
}

extension Diagnostic {
    /// CP605 with what was found instead.
    static func migrationPlanNotChosen(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.migrationPlanNotChosen, message, at: location)
    }
}
