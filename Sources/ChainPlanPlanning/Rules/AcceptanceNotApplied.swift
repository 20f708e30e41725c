import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP404 AcceptanceNotApplied: an `accept` entry of the spec accepts nothing.
    ///
    /// Raised when a plan applies the spec's `accept` entries (`Acceptances.apply`, below).
    package static let acceptanceNotApplied = DiagnosticCode(
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
/// Applies the spec's `accept` entries: findings on a step the lock protects are marked accepted
/// with the entry's reason. They stay in every report (shown as accepted) but no longer count
/// against the gate. An entry that cannot apply is itself a finding (CP404), never ignored:
///
///     accept "V1 -> V2" with V1 and V2 in chain.lock, a CP209 on V1 → V2  → the CP209 is accepted
///     accept "V2 -> V3" with V3 not in chain.lock                         → CP404, nothing accepted
///     accept "V1 -> V2" and no finding on V1 → V2 (fixed, or a typo)       → CP404
enum Acceptances {
    static func apply(_ acceptances: [ChainSpec.Acceptance], to diagnostics: [Diagnostic], lockedVersions: Set<String>?) -> [Diagnostic] {
        guard !acceptances.isEmpty else { return diagnostics }
        var result = diagnostics
        var problems: [Diagnostic] = []
        for acceptance in acceptances {
            let step = acceptance.step
            let versions = [step.from, step.to]
            guard let locked = lockedVersions else {
                problems.append(Diagnostic(.acceptanceNotApplied,
                    "'\(step.from)' → '\(step.to)' is accepted, but there is no usable \(ChainLock.fileName) beside the spec: "
                        + "only findings on shipped (locked) steps can be accepted; run `chainplan lock` when the version ships",
                    at: acceptance.location, versions: versions))
                continue
            }
            let unlocked = versions.filter { !locked.contains($0) }
            guard unlocked.isEmpty else {
                problems.append(Diagnostic(.acceptanceNotApplied,
                    "'\(step.from)' → '\(step.to)' is accepted, but \(unlocked.map { "'\($0)'" }.joined(separator: " and ")) "
                        + "\(unlocked.count == 1 ? "is" : "are") not in \(ChainLock.fileName): only a shipped step's findings can be accepted; fix this one instead",
                    at: acceptance.location, versions: versions))
                continue
            }
            var matched = 0
            for index in result.indices where result[index].versions == versions && result[index].accepted == nil
                && !(result[index].code.unusableInput && result[index].severity == .error)
                && (acceptance.codes.isEmpty || acceptance.codes.contains(result[index].code)) {
                result[index].accepted = acceptance.reason
                matched += 1
            }
            if matched == 0 {
                let codes = acceptance.codes.isEmpty ? "" : " with code " + acceptance.codes.map(\.rawValue).joined(separator: " or ")
                problems.append(Diagnostic(.acceptanceNotApplied,
                    "'\(step.from)' → '\(step.to)' is accepted, but no finding\(codes) is on that step any more; remove the entry",
                    at: acceptance.location, versions: versions))
            }
        }
        return result + problems
    }
}
