import ChainPlanCore

extension DiagnosticCode {
    /// CP511 StageJumpDropsData: a jump the staged migration executes drops data that stepping keeps.
    ///
    /// Raised by a stage list audit (`StageAudit.stageJumpsThatDropData`, below).
    package static let stageJumpDropsData = DiagnosticCode(
        "CP511", name: "StageJumpDropsData", severity: .warning,
        summary: "A jump the staged migration executes drops data that stepping keeps",
        help: "The jump's single inferred mapping loses a value (for example a rename whose identifiers chain step by step but not across the jump). Insert a handler-less custom stage to force stepping.",
        examples: [
            .stages("'title' renamed 'heading' (identifier 'title'), then 'caption' (identifier 'heading'): Core Data's step V2 → V3 drops it too (exact keys), so the jump loses nothing more",
                         versions: [RuleExampleFixtures.note, RuleExampleFixtures.heading, RuleExampleFixtures.caption], stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
            .stages("chainplan's plan steps through V2", versions: [RuleExampleFixtures.note, RuleExampleFixtures.heading, RuleExampleFixtures.caption], stages: nil, expected: 0),
        ])
}

extension StageAudit {
    /// Jumps of successful starts that drop data stepping through the versions between keeps.
    func stageJumpsThatDropData() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for run in starts where run.error == nil {
            for jump in run.jumps where !jump.lostComparedToSteps.isEmpty {
                let lost = jump.lostComparedToSteps.prefix(5).quotedList
                findings.append(Diagnostic(.stageJumpDropsData, "a store at '\(run.version)' jumps '\(jump.from)' → '\(jump.to)' in one inferred mapping, which drops \(lost) that stepping through the versions between keeps (lightweight stages do not step)",
                                           at: location, versions: [run.version, jump.from, jump.to]))
            }
        }
        return findings
    }
}
