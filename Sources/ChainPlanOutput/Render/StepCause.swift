import ChainPlanCore
import ChainPlanPlanning
/// Why a step is drawn as failing or as a warning, in a few words for its edge label.
///
/// - A step that needs a mapping model it lacks: `no mapping model: ` and its first change that
///   blocks inference (`no mapping model: attribute 'Note.title' changes type from String to
///   Integer 64`), else its first error's code and rule (`CP201 not inferable`).
/// - A step that drops data: `drops data: ` and its first change that loses data (`drops data:
///   attribute 'Site.isPublic' is removed`).
/// - A step with a classification finding (CP2xx) at warning severity or above: the finding's
///   code and rule (`CP203 could fail validation`).
///
/// A change's text is cut at its first `; ` or `: ` and at 60 characters; ` (+N)` counts the
/// other causes of the same kind. Nil when the step has none of these.
enum StepCause {
    static let maxCharacters = 60

    /// The label text, and whether the cause is a warning (not a failure).
    static func of(_ step: ChainReport.Step, findings: [Diagnostic]) -> (text: String, isWarning: Bool)? {
        let changes = step.changes ?? []
        if Diagram.EdgeKind(step) == .failing {
            let blocking = changes.filter { $0.verdict == .blocksInference }
            if let first = blocking.first { return ("no mapping model: " + short(first.detail) + more(blocking.count), false) }
            let errors = findings.filter { $0.severity == .error }
            return errors.first.map { (rule($0.code) + more(errors.count), false) } ?? ("no mapping model", false)
        }
        if step.losesData == true {
            let lossy = changes.filter { $0.verdict == .dataLoss }
            return ("drops data" + (lossy.first.map { ": " + short($0.detail) } ?? "") + more(lossy.count), true)
        }
        let warnings = findings.filter { $0.severity >= .warning && $0.accepted == nil }
        return warnings.first.map { (rule($0.code) + more(warnings.count), true) }
    }

    /// `CP203 could fail validation`: the code and its rule's name in words.
    static func rule(_ code: DiagnosticCode) -> String {
        var words = ""
        for character in code.name {
            if character.isUppercase, !words.isEmpty { words += " " }
            words += character.lowercased()
        }
        return "\(code.rawValue) \(words)"
    }

    /// The first clause of a change's text, at most ``maxCharacters`` long.
    static func short(_ detail: String) -> String {
        var text = Substring(detail)
        for separator in ["; ", ": "] {
            if let range = text.range(of: separator) { text = text[..<range.lowerBound] }
        }
        guard text.count > maxCharacters else { return String(text) }
        return String(text.prefix(maxCharacters - 1)) + "…"
    }

    private static func more(_ count: Int) -> String {
        count > 1 ? " (+\(count - 1))" : ""
    }
}
