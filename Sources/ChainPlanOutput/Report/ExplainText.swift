import ChainPlanCore
import ChainPlanPlanning
import Foundation

extension ExplainReport {
    /// Plain text for terminals and review comments.
    package func renderText() -> String {
        var out = "\(TerminalText.safe(from)) → \(TerminalText.safe(to))  [\(TerminalText.safe(bundle))]\n"
        out += "verdict: \(TerminalText.safe(verdict))\n"
        if changes.isEmpty {
            out += "\nno changes\n"
        } else {
            out += "\nchanges:\n"
            for change in changes {
                let mark: String
                switch change.verdict {
                case .inferable: mark = "ok    "
                case .dataLoss: mark = "LOSS  "
                case .blocksInference: mark = "BLOCKS"
                case .noMigration: mark = "-     "
                }
                let code = change.code.map { " [\($0.rawValue)]" } ?? ""
                out += "  \(mark) \(TerminalText.safe(change.detail))\n"
                out += "         rule: \(change.rule) (\(change.basis.rawValue))\(code)"
                if let location = change.location { out += " at \(TerminalText.safe(location.description))" }
                out += "\n"
            }
        }
        if let validation, !validation.isEmpty {
            out += "\nvalidation (the migration fails with 134110 on a store where):\n"
            for check in validation { out += "  \(TerminalText.safe(check.condition))\n" }
        }
        if !entityMappings.isEmpty {
            out += "\ninferred entity mappings:\n"
            for mapping in entityMappings {
                out += "  \(TerminalText.safe(mapping.name)) (\(mapping.kind.rawValue))\n"
                for property in mapping.propertyMappings {
                    out += "    \(TerminalText.safe(property.destination)) = \(TerminalText.safe(property.expression ?? "default"))\n"
                }
            }
        }
        if let sqlite {
            out += "\n" + (sqlite.textLines() + sqlite.runtimeLines()).joined(separator: "\n") + "\n"
        }
        for diagnostic in diagnostics {
            out += TextReporter.line(for: diagnostic, color: false) + "\n"
        }
        return out
    }
}
