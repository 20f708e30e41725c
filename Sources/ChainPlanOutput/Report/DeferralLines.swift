import ChainPlanCore
import ChainPlanPlanning
/// The deferred lightweight migration facts of a chain report in a few lines (reference §7):
/// with the option, what each step defers, where it is ignored and what each start is left to
/// finish; without it, which table rebuilds the option would avoid. Nothing when there is
/// nothing to say. Shared by the text, Markdown and HTML reports.
///
/// Examples (the tests run them): a chain whose step `V1` → `V2` removes `Note.body`, option
/// on: `deferred: 'V1' → 'V2' renames ZNOTE.ZBODY (attribute-removed)` and `finish work per
/// start: V1: 1 finish task (ZNOTE: ZBODY)`; option off: `deferral would avoid 1 table rebuild:
/// ZNOTE in 'V1' → 'V2'`.
package enum DeferralLines {
    /// Items listed per line before "and N more".
    static let shown = 5

    package static func lines(_ report: ChainReport) -> [String] {
        let works = report.steps.compactMap { step in step.sqlite.map { (step, $0) } }
        guard !works.isEmpty else { return [] }
        var lines: [String] = []
        let deferring = works.contains { $0.1.deferred }
        if deferring {
            var deferred: [String] = []
            var ignored: [String] = []
            for (step, work) in works {
                let name = "'\(TerminalText.safe(step.from))' → '\(TerminalText.safe(step.to))'"
                if work.optionIgnored { ignored.append(name) }
                for table in work.tables where table.work == .deferred {
                    deferred.append("\(name) renames " + table.columns.map { "\(TerminalText.safe(table.table)).\(TerminalText.safe($0.column)) (\($0.cause.rawValue))" }.joined(separator: ", "))
                }
            }
            lines.append("deferred: " + (deferred.isEmpty ? "no step defers anything" : list(deferred)))
            if !ignored.isEmpty { lines.append("deferral option ignored (mapping model): " + list(ignored)) }
            let starts = report.paths.compactMap(\.deferral).map { TerminalText.safe($0.summary) }
            if !starts.isEmpty { lines.append("finish work per start: " + list(starts, separator: "; ")) }
        } else {
            var avoidable: [String] = []
            for (step, work) in works {
                for table in work.avoidableRebuilds {
                    avoidable.append("\(TerminalText.safe(table.table)) in '\(TerminalText.safe(step.from))' → '\(TerminalText.safe(step.to))'")
                }
            }
            if !avoidable.isEmpty {
                lines.append("deferral would avoid \(avoidable.count) table \(avoidable.count == 1 ? "rebuild" : "rebuilds"): " + list(avoidable))
            }
        }
        return lines
    }

    private static func list(_ items: [String], separator: String = ", ") -> String {
        items.prefix(shown).joined(separator: separator) + (items.count > shown ? "\(separator)and \(items.count - shown) more" : "")
    }
}
