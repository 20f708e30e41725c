import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=CP104::message`), which
/// GitHub turns into annotations on the pull request's files, and a Markdown job summary.
///
/// GitHub shows at most ten annotations of each kind per step, so the first ten errors, warnings
/// and notices become commands. The rest are in the job summary (`$GITHUB_STEP_SUMMARY`, written
/// by the CLI) when there is one, and otherwise follow as plain log lines, so every finding is
/// somewhere a reader can see it.
package enum GitHubReporter {
    package static let annotationsPerKind = 10

    /// The workflow commands for standard output. `stepSummary`: every finding is also in the job
    /// summary; without one, the findings past the annotation limit are printed as log lines.
    package static func render(_ report: ChainReport, stepSummary: Bool = false) -> Data {
        var out = ""
        var shown: [Severity: Int] = [:]
        var held: [Diagnostic] = []
        for diagnostic in report.diagnostics {
            guard shown[diagnostic.severity, default: 0] < annotationsPerKind else {
                held.append(diagnostic)
                continue
            }
            shown[diagnostic.severity, default: 0] += 1
            out += command(for: diagnostic) + "\n"
        }
        if !stepSummary, !held.isEmpty {
            // Plain lines, whose paths and messages come from the input: the runner trims leading
            // space before it looks for `::`, so the lines are bracketed by `stop-commands`. The
            // token is a digest of the lines themselves, so it cannot occur in them, and the
            // output stays the same for the same input.
            let lines = held.map { TextReporter.line(for: $0, color: false) }.joined(separator: "\n")
            let token = "chainplan-" + ChainLock.digest(lines)
            out += "::stop-commands::\(token)\n" + lines + "\n::\(token)::\n"
        }
        out += "chainplan: \(Reporters.counts(report.summary)) — \(report.summary.verdict)\n"
        let more = Severity.allCases.reversed().compactMap { severity -> String? in
            let count = held.filter { $0.severity == severity }.count
            return count == 0 ? nil : Reporters.plural(count, "more \(severity.rawValue)")
        }
        if !more.isEmpty {
            out += "chainplan: \(more.joined(separator: ", ")) not annotated (GitHub shows \(annotationsPerKind) of each kind per step); "
                + (stepSummary ? "every finding is in the job summary\n" : "they are listed above as plain lines\n")
        }
        return Data(out.utf8)
    }

    /// One workflow command. Property values escape `%`, CR, LF, `:` and `,`; the message escapes
    /// `%`, CR and LF, as GitHub's toolkit does.
    package static func command(for diagnostic: Diagnostic) -> String {
        // An accepted finding no longer fails the job: a notice that says so.
        let kind = switch diagnostic.accepted == nil ? diagnostic.severity : .note {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties.append("file=\(escapeProperty(location.file))")
            if let line = location.line { properties.append("line=\(line)") }
            if let column = location.column { properties.append("col=\(column)") }
        }
        properties.append("title=\(escapeProperty(diagnostic.code.rawValue))")
        let accepted = diagnostic.accepted.map { " (accepted \(diagnostic.severity.rawValue): \($0))" } ?? ""
        return "::\(kind) \(properties.joined(separator: ","))::\(escapeData(MarkupText.inert(diagnostic.message + accepted)))"
    }

    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// The job summary: the verdict and every finding, as GitHub-flavoured Markdown.
    package static func stepSummary(_ report: ChainReport) -> Data {
        let summary = report.summary
        var out = "## chainplan: \(summary.verdict == "pass" ? "pass" : "fail")\n\n"
        out += MarkupText.markdownCode(report.spec)
        if let target = report.target { out += ", target **\(MarkupText.markdown(target))**" }
        out += ": \(Reporters.plural(report.versions.count, "version")), \(Reporters.plural(report.steps.count, "step")); \(Reporters.counts(summary)).\n"
        guard !report.diagnostics.isEmpty else { return Data(out.utf8) }
        out += "\n| Severity | Code | Where | Finding |\n|---|---|---|---|\n"
        for diagnostic in report.diagnostics {
            let place = diagnostic.location.map { MarkupText.markdown($0.description) } ?? ""
            out += "| \(diagnostic.severity.rawValue) | \(diagnostic.code.rawValue) | \(place) | \(MarkupText.markdown(diagnostic.message)) |\n"
        }
        return Data(out.utf8)
    }
}
