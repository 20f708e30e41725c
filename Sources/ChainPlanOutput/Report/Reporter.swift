import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation

/// Output formats. The CLI's `--format` enum is this one.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case text
    case json
    /// SARIF 2.1.0 for code scanning.
    case sarif
    /// JUnit XML for CI test reports.
    case junit
    /// GitHub Actions workflow commands (annotations).
    case github
}

/// What a text rendering focuses on.
public enum ReportView: Sendable, Hashable {
    /// Findings and a summary (`validate`).
    case diagnostics
    /// Every start's path (`paths`), optionally only one start's.
    case paths(from: String?)
    /// The store and its findings alone (a dry run whose store cannot be used: the chain is not reported).
    case findings
}

/// Options for rendering; they never change the facts, only their presentation.
public struct RenderOptions: Sendable, Hashable {
    public var view: ReportView
    /// ANSI colour for terminals.
    public var color: Bool
    /// Findings at or above this severity fail (JUnit failures); `--strict` lowers it to warnings.
    public var failing: Severity
    /// `github`: every finding is also written to the job summary.
    public var stepSummary: Bool
    /// `sarif`: the rules the log describes (the catalogue); codes of the report's findings are
    /// described whether listed or not.
    public var rules: [DiagnosticCode]

    public init(view: ReportView = .diagnostics, color: Bool = false, failing: Severity = .error, stepSummary: Bool = false,
                rules: [DiagnosticCode] = []) {
        self.view = view
        self.color = color
        self.failing = failing
        self.stepSummary = stepSummary
        self.rules = rules
    }
}

/// Reporters are pure: one report in, bytes out.
public enum Reporters {
    /// `1 note`, `2 notes`: the one way every reporter counts.
    static func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

    /// `0 errors, 1 warning, 1 note`.
    static func counts(_ summary: ChainReport.Summary) -> String {
        "\(plural(summary.errors, "error")), \(plural(summary.warnings, "warning")), \(plural(summary.notes, "note"))"
            + (summary.accepted.map { ", \($0) accepted" } ?? "")
    }

    /// `warning`, or `warning, accepted` for a finding the spec's `accept` acknowledges.
    static func severityLabel(_ diagnostic: Diagnostic) -> String {
        diagnostic.severity.rawValue + (diagnostic.accepted == nil ? "" : ", accepted")
    }

    /// The message, with the reason when the finding is accepted.
    static func findingText(_ diagnostic: Diagnostic) -> String {
        diagnostic.message + (diagnostic.accepted.map { " (accepted: \($0))" } ?? "")
    }

    /// A dry run's report: the plan as `render(_:as:options:)` renders it, with the store's part in
    /// text and JSON (the other formats carry findings only).
    public static func render(_ report: DryRunReport, as format: OutputFormat, options: RenderOptions = RenderOptions()) -> Data {
        switch format {
        case .text: Data(TextReporter.render(report.plan, store: report.store, entities: report.entities ?? [], options: options).utf8)
        case .json: JSONReporter.encode(report)
        default: render(report.plan, as: format, options: options)
        }
    }

    public static func render(_ report: ChainReport, as format: OutputFormat, options: RenderOptions = RenderOptions()) -> Data {
        switch format {
        case .text: Data(TextReporter.render(report, options: options).utf8)
        case .json: JSONReporter.render(report, options: options)
        case .sarif: SARIFReporter.render(report, rules: options.rules)
        case .junit: JUnitReporter.render(report, failing: options.failing)
        case .github: GitHubReporter.render(report, stepSummary: options.stepSummary)
        }
    }
}

/// The versioned JSON document: sorted keys, pretty printed, no timestamps.
public enum JSONReporter {
    public static func render(_ report: ChainReport, options: RenderOptions = RenderOptions()) -> Data {
        var document = report
        if case .paths(let from?) = options.view {
            document.paths = document.paths.filter { $0.start == from }
        }
        return encode(document)
    }

    /// Encodes any value the way every chainplan JSON output is encoded.
    public static func encode<Value: Encodable>(_ value: Value) -> Data {
        CanonicalJSON.encode(value)
    }
}
