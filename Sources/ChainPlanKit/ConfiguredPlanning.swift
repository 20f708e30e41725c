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

extension ChainPlanner {
    /// This planner under the configuration that governs `url` (see `RuleConfiguration.governing`),
    /// or the CP130 findings that make the input unusable.
    func configured(inputAt url: URL, configuration: URL?) -> Result<ConfiguredRun, UnusableConfiguration> {
        let read = RuleConfiguration.governing(inputAt: url, file: configuration, baseDirectory: options.baseDirectory)
        guard let rules = read.configuration else { return .failure(UnusableConfiguration(diagnostics: read.diagnostics)) }
        return .success(ConfiguredRun(planner: ChainPlanner(options: rules.applying(to: options)), rules: rules))
    }

    /// The report for input whose configuration cannot be used.
    func unusable(inputAt url: URL, _ failure: UnusableConfiguration) -> ChainReport {
        ChainReport.unusable(spec: DisplayPath.make(url, relativeTo: options.baseDirectory), diagnostics: failure.diagnostics)
    }

    /// Plans `url` under the project's rule configuration.
    /// A configuration that cannot be read makes the input unusable (CP130, exit 2).
    public func plan(inputAt url: URL, configuration: URL?) -> ChainReport {
        switch configured(inputAt: url, configuration: configuration) {
        case .failure(let failure): unusable(inputAt: url, failure)
        case .success(let run): run.finish(run.planner.plan(inputAt: url))
        }
    }

    /// `explain` under the rule configuration: its thresholds plan the input, and its severities
    /// (and `off`) apply to the findings. An unusable configuration is the failure.
    public func explain(inputAt url: URL, from: String, to: String, configuration: URL?) -> Result<ExplainReport, ExplainFailure> {
        switch configured(inputAt: url, configuration: configuration) {
        case .failure(let failure): return .failure(ExplainFailure(failure.diagnostics))
        case .success(let run):
            return run.planner.explain(inputAt: url, from: from, to: to).map(run.finish)
        }
    }

    /// `lock` under the rule configuration. An unusable configuration gives no lock, and its CP130
    /// findings are the report's.
    public func lock(inputAt url: URL, versions requested: [String]?, force: Bool = false, configuration: URL?) -> LockPlan {
        switch configured(inputAt: url, configuration: configuration) {
        case .failure(let failure):
            return .made(lock: nil, file: url.deletingLastPathComponent().appendingPathComponent(ChainLock.fileName),
                         report: unusable(inputAt: url, failure), missing: [])
        case .success(let run):
            var plan = run.planner.lock(inputAt: url, versions: requested, force: force)
            plan.report = run.finish(plan.report)
            return plan
        }
    }

    /// A dry run under the rule configuration: its thresholds (`heavyweight-memory-mb` unless
    /// `options.memoryLimitBytes` is set, as by `--memory-limit`) and its severities.
    public func dryRun(inputAt url: URL, storeAt storePath: String, options dryRun: DryRunOptions, configuration: URL?) -> DryRunReport {
        switch configured(inputAt: url, configuration: configuration) {
        case .failure(let failure): return DryRunReport(plan: unusable(inputAt: url, failure))
        case .success(let run):
            var dryRun = dryRun
            if dryRun.memoryLimitBytes == nil, let megabytes = run.rules.heavyweightMemoryMB { dryRun.memoryLimitBytes = megabytes << 20 }
            var report = run.planner.dryRun(inputAt: url, storeAt: storePath, options: dryRun)
            report.plan = run.finish(report.plan)
            return report
        }
    }
}

/// The CP130 findings of a configuration file that cannot be used.
struct UnusableConfiguration: Error {
    let diagnostics: [Diagnostic]
}
