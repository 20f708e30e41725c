import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import ChainPlanReaders
import ChainPlanStore
import Foundation

extension OutputFormat: ExpressibleByArgument {}

/// The input every planning command takes: the spec (or the one in the current directory) and
/// the planning options.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A chain spec (.json, .yaml, .yml), an .xcdatamodeld bundle, or SwiftData Swift sources (a .swift file or a folder). Default: chain.json, chain.yaml or chain.yml in the current directory.",
        valueName: "spec"))
    var spec: String?

    @OptionGroup var planning: PlanningOptions

    @Option(name: .customLong("against"), help: ArgumentHelp(
        "A git revision (a release tag, origin/main) whose model bundle shipped: each version it holds is checked like a locked one.",
        valueName: "rev"))
    var against: String?

    var configURL: URL? { planning.configURL }
    var deferred: Bool { planning.deferred }

    func planOptions() -> PlanOptions {
        var options = planning.planOptions()
        options.against = against
        return options
    }

    /// Plans the spec under the rule configuration: what every planning command reports on.
    /// `output`: the formats the report is rendered in, when known (work no format shows is skipped).
    func plan(for output: OutputOptions? = nil) throws -> ChainReport {
        var options = planOptions()
        if let output { options.analysesDirectJumpWork = output.showsDirectJumpWork }
        return ChainPlanner(options: options).plan(inputAt: try resolveSpec(), configuration: planning.configURL)
    }

    /// Plan options under the rule configuration for `spec` (its thresholds), for commands that do
    /// not report findings. An unusable configuration prints its CP130 findings and exits 2.
    func configuredPlanOptions(for spec: URL) throws -> PlanOptions {
        let read = RuleConfiguration.governing(inputAt: spec, file: planning.configURL)
        guard let rules = read.configuration else { throw UsageError(findings: read.diagnostics) }
        return rules.applying(to: planOptions())
    }

    /// The spec to use: the argument, or the single chain.{json,yaml,yml} in the current directory.
    func resolveSpec() throws -> URL {
        if let spec { return URL(fileURLWithPath: spec) }
        switch SpecDiscovery.find(in: DisplayPath.currentDirectory) {
        case .found(let url):
            return url
        case .none:
            throw UsageError("no spec given and no chain.json, chain.yaml or chain.yml in the current directory")
        case .several(let names):
            throw UsageError("no spec given and several candidates in the current directory (\(names.joined(separator: ", "))); name one")
        }
    }
}

/// Output options shared by reporting commands.
///
/// `--format` may be repeated, each with its own `-o`: the n-th `-o` receives the n-th format, and
/// a format without an `-o` goes to standard output (at most one may). So
/// `--format sarif -o out.sarif --format junit -o junit.xml --format text` writes all three in one run.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Output format; repeat it, each with its own -o, to write several in one run.",
                                            valueName: "format"))
    var format: [OutputFormat] = []

    @Option(name: [.customShort("o"), .long], help: "Write the n-th format to this file instead of standard output.")
    var output: [String] = []

    @OptionGroup var gate: StrictOption
    var strict: Bool { gate.strict }

    @OptionGroup var color: ColorOptions
    var noColor: Bool { color.noColor }

    /// Each format with its file, or nil for standard output.
    func destinations() throws -> [(format: OutputFormat, path: String?)] {
        let formats = format.isEmpty ? [OutputFormat.text] : format
        guard output.count <= formats.count else {
            throw UsageError("\(output.count) -o given for \(formats.count) format(s); give one -o per --format, in the same order")
        }
        var seen: [String: String] = [:]
        for path in output {
            let key = URL(fileURLWithPath: path).standardizedFileURL.path
            if let earlier = seen.updateValue(path, forKey: key) {
                throw UsageError("'\(path)' is given to -o twice\(earlier == path ? "" : " (as '\(earlier)')"); the second format would overwrite the first: give each format its own file")
            }
        }
        let pairs = formats.enumerated().map { (format: $1, path: $0 < output.count ? output[$0] : nil) }
        if pairs.filter({ $0.path == nil }).count > 1 {
            throw UsageError("only one format can go to standard output; give the others an -o each")
        }
        return pairs
    }

    /// Colour only on a terminal, never with a non-empty NO_COLOR or when writing to a file
    /// (captured output, `OutputCapture`, is not a terminal).
    func useColor(path: String?) -> Bool {
        ColorDecision.useColor(noColorFlag: noColor, toFile: path != nil,
                               noColorEnvironment: CLIEnvironment.value("NO_COLOR"),
                               isTerminal: OutputCapture.current == nil && isatty(STDOUT_FILENO) == 1)
    }

    var failing: Severity { strict ? .warning : .error }

    /// Whether a requested format shows the direct jumps' SQLite work (only JSON encodes it).
    var showsDirectJumpWork: Bool { format.contains(.json) }

    /// Renders `report` in every requested format to its destination. With `github`, the job
    /// summary is appended to `$GITHUB_STEP_SUMMARY` when that variable is set (as in GitHub Actions);
    /// when it cannot be written, a warning goes to standard error, the findings the annotations
    /// leave out are printed as log lines instead, and the exit status stays the gate's.
    func emit(_ report: ChainReport, view: ReportView) throws {
        try emit(report, view: view) { Reporters.render(report, as: $0, options: $1) }
    }

    /// A dry run's report: the plan's findings, with the store's part in text and JSON.
    func emit(_ report: DryRunReport, view: ReportView) throws {
        try emit(report.plan, view: view) { Reporters.render(report, as: $0, options: $1) }
    }

    /// Writes `render`'s output for every destination; `report` gives the job summary.
    private func emit(_ report: ChainReport, view: ReportView, render: (OutputFormat, RenderOptions) -> Data) throws {
        for (format, path) in try destinations() {
            var stepSummary = false
            if format == .github, let summary = CLIEnvironment.value("GITHUB_STEP_SUMMARY"), !summary.isEmpty {
                do {
                    try FileHandleOutput.append(GitHubReporter.stepSummary(report), to: summary)
                    stepSummary = true
                } catch {
                    FileHandleOutput.standardError.write("chainplan: warning: no job summary: \(error)\n")
                }
            }
            let options = RenderOptions(view: view, color: format == .text && useColor(path: path), failing: failing, stepSummary: stepSummary, rules: RuleCatalogue.all)
            try FileHandleOutput.write(render(format, options), to: path)
        }
    }
}

/// Whether text output is coloured: on a terminal only, never with `--no-color`, never when
/// writing to a file, and never when `NO_COLOR` is set to a non-empty value (no-color.org: an
/// empty `NO_COLOR` does not turn colour off).
enum ColorDecision {
    static func useColor(noColorFlag: Bool, toFile: Bool, noColorEnvironment: String?, isTerminal: Bool) -> Bool {
        if noColorFlag || toFile { return false }
        if let value = noColorEnvironment, !value.isEmpty { return false }
        return isTerminal
    }
}

/// Maps a report's findings to chainplan's exit status:
/// 2 unusable input, 1 findings at or above the failing severity, 0 otherwise.
enum ExitStatus {
    static func code(for diagnostics: [Diagnostic], strict: Bool) -> Int32 {
        if diagnostics.hasUnusableInput { return 2 }
        let failing: Severity = strict ? .warning : .error
        if let worst = diagnostics.maximumSeverity, worst >= failing { return 1 }
        return 0
    }

    static func finish(_ diagnostics: [Diagnostic], strict: Bool) throws {
        let code = code(for: diagnostics, strict: strict)
        if code != 0 { throw ExitCode(code) }
    }
}

/// `--format text|json` and `-o`, for a command that prints one document (`history`, `prune`).
struct DocumentOutputOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    /// Writes the document in the chosen format to standard output or `-o`.
    func write(text: () -> String, json: () -> [UInt8]) throws {
        try FileHandleOutput.write(format == .json ? Data(json()) : Data(text().utf8), to: output)
    }
}
