import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation

extension RuleConfiguration {
    /// The configuration that governs the input at `url`: the file at `file` when given, else
    /// `.chainplan.yml` beside the spec (or beside the bundle given as the spec) when there is one,
    /// else the defaults. `configuration` is nil, and `diagnostics` are CP130 errors, when the
    /// file cannot be used; every command then stops with exit 2.
    public static func governing(inputAt url: URL, file: URL?, baseDirectory: URL = DisplayPath.currentDirectory) -> ReadResult {
        let implicit = url.deletingLastPathComponent().appendingPathComponent(fileName)
        guard let file = file ?? (FileManager.default.fileExists(atPath: implicit.path) ? implicit : nil) else {
            return .made(configuration: RuleConfiguration(), diagnostics: [])
        }
        return read(fileAt: file, displayPath: DisplayPath.make(file, relativeTo: baseDirectory), codes: RuleCatalogue.all)
    }
}

/// A run under the project's rule configuration, resolved once: the planner carries the
/// configuration's thresholds in its options, and every entry point ends in `finish`.
struct ConfiguredRun {
    let planner: ChainPlanner
    let rules: RuleConfiguration

    /// The report as every command sees it: severities (and `off`) applied, findings sorted,
    /// the summary recomputed. The one place this happens.
    func finish(_ report: ChainReport) -> ChainReport {
        rules.apply(to: report).resummarised()
    }

    /// `explain`'s document the same way: severities (and `off`) applied, findings sorted.
    func finish(_ report: ExplainReport) -> ExplainReport {
        var report = report
        report.diagnostics = rules.apply(to: report.diagnostics).sorted()
        return report
    }
}

/// The CP130 findings of a configuration file that cannot be used.
struct UnusableConfiguration: Error {
    let diagnostics: [Diagnostic]
}
