import ChainPlanCore

extension DiagnosticCode {
    /// CP509 HandlerOffCurrentModel: a willMigrate handler runs while the store is not at its stage's current model.
    ///
    /// Raised by a stage list audit (`StageAudit.handlersOffCurrentModel`, below).
    package static let handlerOffCurrentModel = DiagnosticCode(
        "CP509", name: "HandlerOffCurrentModel", severity: .error,
        summary: "A willMigrate handler runs while the store is not at its stage's current model",
        help: "`willMigrateHandler` opens the store at the stage's current model with migration off: a store elsewhere fails with 134100 \"The model used to open the store is incompatible with the one used to create the store\". Add stages so every store reaches the current model first.",
        examples: [
            .stages("the custom stage's current model is V3, but the stage before leaves stores at V2", versions: RuleExampleFixtures.three,
                         stages: [["bridge", "V1", "V2"], ["custom", "V3", "V2"]], expected: 1),
            .stages("the custom stage starts where the stage before ends", versions: RuleExampleFixtures.three,
                         stages: [["bridge", "V1", "V2"], ["custom", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Starts that reach a custom stage's willMigrate handler off its current model (134100).
    func handlersOffCurrentModel() -> [Diagnostic] {
        startGroup(.handlerOffCurrentModel, { $0.error?.code == 134100 && $0.error?.reason == StageSimulation.Reason.incompatible }) {
            "stores at \($0.map(\.version).quotedList) reach a custom stage's willMigrate handler off its current model: 134100 \"\(StageSimulation.Reason.incompatible)\""
        }
    }
}
