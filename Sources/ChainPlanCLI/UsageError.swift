import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput

/// Unusable input or a usage problem, for every command: the findings that say why (one line
/// each, as the text reporter writes them), then `chainplan: error: …` when there is a message;
/// exit status 2. Commands throw it; `ChainPlan.run` renders it, once, on standard error.
struct UsageError: Error, CustomStringConvertible {
    /// Findings that make the input unusable, printed first.
    var findings: [Diagnostic]
    var message: String?

    init(_ message: String) {
        findings = []
        self.message = message
    }

    init(findings: [Diagnostic], _ message: String? = nil) {
        self.findings = findings
        self.message = message
    }

    var description: String { message ?? findings.map(\.message).joined(separator: "; ") }

    /// What standard error shows.
    var rendered: String {
        findings.map { TextReporter.line(for: $0, color: false) + "\n" }.joined()
            + (message.map { "chainplan: error: \($0)\n" } ?? "")
    }
}
