import ChainPlanCore

extension DiagnosticCode {
    /// CP510 StageJumpFails: a jump the staged migration executes cannot be migrated.
    ///
    /// Raised by a stage list audit (`StageAudit.stageJumpsThatFail`, below; a synthesised plan leaves out the jumps its own CP201 names, `StageSynthesis.swift`).
    package static let stageJumpFails = DiagnosticCode(
        "CP510", name: "StageJumpFails", severity: .error,
        summary: "A jump the staged migration executes cannot be migrated",
        help: "Lightweight stages do not step: a run of them is one jump from the store's model to the run's target, and Core Data must infer (or find a mapping model for) that jump; otherwise 134140 \"Can't find or automatically infer mapping model for migration\". Insert a custom stage (handler-less is enough) so the store steps.",
        examples: [
            .stages("'title' removed in V2, re-added as a number in V3: one lightweight stage jumps V1 → V3", versions: [RuleExampleFixtures.noteWithBody, RuleExampleFixtures.untitled, RuleExampleFixtures.bodyAndNumericTitle],
                         stages: [["lightweight", "V1", "V2", "V3"]], expected: 1),
            .stages("chainplan's plan forces stepping with a handler-less custom stage", versions: [RuleExampleFixtures.noteWithBody, RuleExampleFixtures.untitled, RuleExampleFixtures.bodyAndNumericTitle], stages: nil, expected: 0),
        ])
}

extension StageAudit {
    /// Starts whose last jump Core Data cannot infer and no mapping model covers (134140).
    func stageJumpsThatFail() -> [Diagnostic] {
        starts.compactMap { run in
            guard run.error?.code == 134140, let jump = run.jumps.last else { return nil }
            return Diagnostic(.stageJumpFails, "a store at '\(run.version)' jumps '\(jump.from)' → '\(jump.to)', which Core Data cannot infer and no mapping model covers: 134140 \"\(StageSimulation.Reason.noMapping)\"",
                              at: location, versions: [run.version, jump.from, jump.to])
        }
    }
}
