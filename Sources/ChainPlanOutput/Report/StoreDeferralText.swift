import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation

/// The dry run's deferred-migration lines (reference §7.3): the work the store already holds
/// (or its stale metadata key), and with `--deferred` the simulated finish next to the same steps
/// run without the option. Times read `in 0.01 s` (wall clock, output only).
///
/// Examples (the tests run them): a store whose `ZNOTE` holds `_DEFERRED_…__ZBODY` →
/// `deferred work in the store: 1 finish task (ZNOTE: ZBODY)`; after `V1 → V2` with the option →
/// `V1 → V2 with the option: 0 rows copied in 0.00 s; without: 5 rows copied in 0.00 s` and
/// `finish (simulated): ZNOTE 5 rows copied in 0.00 s`.
extension StoreReport {
    package func deferralTextLines(indent: String = "  ") -> [String] {
        let safe = TerminalText.safe
        func seconds(_ value: Double?) -> String { value.map { "in \(NumberText.fixed($0, digits: 2)) s" } ?? "not simulated" }
        func rows(_ value: Int?) -> String { value.map { "\(NumberText.grouped($0)) \($0 == 1 ? "row" : "rows") copied" } ?? "" }
        var lines: [String] = []
        if let pending = pendingDeferred {
            lines.append("\(indent)deferred work in the store: " + safe(pending.summary))
        }
        guard let finish = deferredFinish else { return lines }
        for step in finish.steps {
            var line = "\(indent)\(safe(step.from)) → \(safe(step.to)) with the option: "
            line += [rows(step.deferredRowsCopied), seconds(step.deferredSeconds)].filter { !$0.isEmpty }.joined(separator: " ")
            line += "; without: " + [rows(step.withoutDeferralRowsCopied), seconds(step.withoutDeferralSeconds)].filter { !$0.isEmpty }.joined(separator: " ")
            lines.append(line)
        }
        if let failure = finish.failure {
            lines.append("\(indent)finish (simulated) failed: \(safe(failure))")
        } else if finish.tasks.isEmpty {
            lines.append("\(indent)finish (simulated): nothing to finish")
        } else {
            lines.append("\(indent)finish (simulated): " + finish.tasks.map {
                "\(safe($0.table)) \(rows($0.rows)) \(seconds($0.seconds)) (drops \($0.columns.map(safe).joined(separator: ", ")))"
            }.joined(separator: "; "))
        }
        if !finish.leftOver.isEmpty {
            lines.append("\(indent)left after finishing (no table of the model): " + finish.leftOver.map(safe).joined(separator: ", "))
        }
        return lines
    }
}
