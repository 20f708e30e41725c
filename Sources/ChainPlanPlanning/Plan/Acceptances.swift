import ChainPlanCore
import ChainPlanReaders
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
