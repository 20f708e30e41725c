import ChainPlanCore
import ChainPlanPlanning
extension SQLiteWork {
    /// Plain-text lines (no trailing newline), indented by `indent`.
    package func textLines(indent: String = "  ") -> [String] {
        var lines: [String] = []
        switch path {
        case .mappingModel:
            lines.append("SQLite: mapping model: every object is loaded and saved into a new store"
                + (optionIgnored ? "; the deferred lightweight migration option is ignored there" : ""))
            return lines
        case .inPlace:
            break
        }
        let changed = tables.filter { $0.work != .unchanged }
        lines.append("SQLite: in place, deferral \(deferred ? "on" : "off"): "
            + (changed.isEmpty ? "no table changes" : "\(changed.count) of \(tables.count) tables change")
            + (deferred ? ", \(finishTasks) finish \(finishTasks == 1 ? "task" : "tasks")" : ""))
        for table in changed {
            let owner = table.entity.map { "(\(TerminalText.safe($0)))" } ?? "(join table)"
            var line = "\(indent)\(TerminalText.safe(table.table)) \(owner): \(table.work.rawValue)"
            let columns = table.columns.map { "\(TerminalText.safe($0.column)) \($0.cause.rawValue)" }.joined(separator: ", ")
            switch table.work {
            case .deferred:
                line += ": " + columns + "; finished later by a full copy of the table"
            case .rebuilt where table.avoidableByDeferral == true:
                line += " now: deferral would rename instead: " + columns
            default:
                if !table.reasons.isEmpty { line += ": " + table.reasons.map(TerminalText.safe).joined(separator: "; ") }
                if table.work == .rebuilt, !columns.isEmpty { line += "; deferrable columns dropped by the rebuild: " + columns }
            }
            lines.append(line)
        }
        let avoidable = avoidableRebuilds.count
        if !deferred, avoidable > 0 {
            lines.append("\(indent)deferral would avoid \(avoidable) \(avoidable == 1 ? "rebuild" : "rebuilds"): "
                + avoidableRebuilds.map { TerminalText.safe($0.table) }.joined(separator: ", "))
        }
        return lines
    }
}
