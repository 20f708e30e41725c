import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation

extension StoreInspection {
    /// `Store S.sqlite: version 'V2' by hashes`, the deferred work line, then the findings.
    package func text() -> String {
        let safe = TerminalText.safe
        var out = "Store \(safe(path))"
        if let detectedVersion { out += ": version '\(safe(detectedVersion))' by \(evidence ?? "structure")" }
        out += "\n"
        if let deferred {
            out += "deferred work: " + safe(deferred.summary) + "\n"
            for table in deferred.tables {
                out += "  \(safe(table.table)) (\(NumberText.grouped(table.rows)) \(table.rows == 1 ? "row" : "rows")): "
                    + table.columns.map { column in safe(column.column) + (column.original.map { " (was \(safe($0)))" } ?? "") }.joined(separator: ", ") + "\n"
            }
        }
        for diagnostic in diagnostics { out += TextReporter.line(for: diagnostic, color: false) + "\n" }
        return out
    }

    /// The JSON document (CanonicalJSON).
    package func jsonData() -> Data {
        CanonicalJSON.encode(self)
    }
}
