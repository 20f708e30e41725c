import ChainPlanCore

extension DiagnosticCode {
    /// CP507 BackwardStages: the stages migrate some store backwards.
    ///
    /// Raised by a stage list audit (`StageAudit.backwardStages`, below).
    package static let backwardStages = DiagnosticCode(
        "CP507", name: "BackwardStages", severity: .error,
        summary: "The stages migrate some store backwards",
        help: "The app model's stage comes before the store's, or precedes it in the last lightweight stage: Core Data refuses with 134506 \"A store file cannot be migrated backwards with staged migration.\" List stages oldest first.",
        examples: [
            .stages("the stages are listed newest first", versions: RuleExampleFixtures.three, stages: [["custom", "V2", "V3"], ["lightweight", "V1"]], expected: 1),
            .stages("oldest first", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Starts that fail because the app model's stage comes before theirs (134506).
    func backwardStages() -> [Diagnostic] {
        startGroup(.backwardStages, { $0.error?.code == 134506 }) {
            "stores at \($0.map(\.version).quotedList) fail with 134506 \"\(StageSimulation.Reason.backward)\": the app model's stage comes before theirs"
        }
    }
}
