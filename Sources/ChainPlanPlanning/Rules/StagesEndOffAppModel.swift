import ChainPlanCore

extension DiagnosticCode {
    /// CP508 StagesEndOffAppModel: some store does not end on the app model.
    ///
    /// Raised by a stage list audit (`StageAudit.stagesEndOffAppModel`, below).
    package static let stagesEndOffAppModel = DiagnosticCode(
        "CP508", name: "StagesEndOffAppModel", severity: .error,
        summary: "Some store does not end on the app model",
        help: "After the stages run the store is re-added; when it is still not at the app model, iOS 26.1 fails with 134100 \"Incompatible metadata after migration because the store version hashes didn't migrate.\" (older systems migrated again, so short plans seemed to work). End the stages exactly on the app model.",
        examples: [
            .stages("the last custom stage goes from V3 back to V2: stores end on V2, not the app model V3", versions: RuleExampleFixtures.three,
                         stages: [["lightweight", "V1"], ["bridge", "V3", "V2"]], expected: 1),
            .stages("the last stage ends on V3", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1"], ["bridge", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Starts whose stages end on a model other than the app model (134100).
    func stagesEndOffAppModel() -> [Diagnostic] {
        startGroup(.stagesEndOffAppModel, { $0.error?.reason == StageSimulation.Reason.incompatibleAfterMigration }) {
            "stores at \($0.map(\.version).quotedList) end on \($0[0].jumps.last.map { "'\($0.to)'" } ?? "their own model"), not the app model: 134100 \"\(StageSimulation.Reason.incompatibleAfterMigration)\" (end the stages exactly on the app model)"
        }
    }
}
