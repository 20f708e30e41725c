import ChainPlanCore

extension DiagnosticCode {
    /// CP404 AcceptanceNotApplied: an `accept` entry of the spec accepts nothing.
    ///
    /// Raised in `Acceptances.swift`.
    public static let acceptanceNotApplied = DiagnosticCode(
        "CP404", name: "AcceptanceNotApplied", severity: .warning,
        summary: "An `accept` entry of the spec accepts nothing",
        help: "`accept` acknowledges findings on a shipped step, one whose versions are both in `chain.lock`, with a reason; they are then reported as accepted and no longer fail the gate. An entry for a step the lock does not protect, or one that matches no finding any more, accepts nothing: lock the versions when they ship, fix the step, or remove the entry.",
        examples: [
            .project("V2 → V3 is accepted, but V3 is not locked",
                         files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note], extra: #", "accept": {"V2 -> V3": "body was never shown"}"#),
                         lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note]), expected: 1),
            .project("V2 → V3 shipped (V1 to V3 locked while V4 was the target); its CP209 is accepted",
                         files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note, RuleExampleFixtures.note], extra: #", "accept": {"V2 -> V3": "body was never shown"}"#),
                         lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note, RuleExampleFixtures.note]), expected: 0),
        ])
}
