import ChainPlanCore
import ChainPlanPlanning
/// The summary leads with errors: findings are listed in history order, so in a long history
/// the errors can sit among many warnings and notes. When a report has errors and other
/// findings, the summary first names each error (five at most) by its code and versions.
///
///     errors: CP123 'zmessaging2.46.0', 'zmessaging2.47.0'; CP402 'Model 3'
enum ErrorLead {
    static let shown = 5

    static func line(_ report: ChainReport) -> String? {
        let errors = report.diagnostics.filter { $0.severity == .error && $0.accepted == nil }
        guard !errors.isEmpty, errors.count < report.diagnostics.count else { return nil }
        let named = errors.prefix(shown).map { error -> String in
            let versions = error.versions.map { "'\(TerminalText.safe($0))'" }.joined(separator: ", ")
            return error.code.rawValue + (versions.isEmpty ? "" : " " + versions)
        }
        let more = errors.count > shown ? "; and \(errors.count - shown) more" : ""
        return "errors: " + named.joined(separator: "; ") + more
    }
}
