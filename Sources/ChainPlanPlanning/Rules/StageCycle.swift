import ChainPlanCore

extension DiagnosticCode {
    /// CP513 StageCycle: custom stages form a cycle.
    ///
    /// Raised in `StageAudit.swift`.
    public static let stageCycle = DiagnosticCode(
        "CP513", name: "StageCycle", severity: .warning,
        summary: "Custom stages form a cycle",
        help: "The manager accepts cycles, but a store on one migrates away from its model and back. Usually two stages were written in the wrong direction.",
        examples: [
            .stages("two custom stages migrate V2 → V3 and back", versions: RuleExampleFixtures.three,
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"], ["custom", "V3", "V2"]], expected: 1),
            .stages("one direction", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ])
}
