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
        return read(fileAt: file, displayPath: DisplayPath.make(file, relativeTo: baseDirectory))
    }
}

extension ChainPlanner {
    /// Plans `url` under the project's rule configuration (see `RuleConfiguration.governing`).
    /// A configuration that cannot be read makes the input unusable (CP130, exit 2).
    public func plan(inputAt url: URL, configuration: URL?) -> ChainReport {
        let read = RuleConfiguration.governing(inputAt: url, file: configuration, baseDirectory: options.baseDirectory)
        guard let rules = read.configuration else {
            return ChainReport.unusable(spec: DisplayPath.make(url, relativeTo: options.baseDirectory), diagnostics: read.diagnostics)
        }
        let planner = ChainPlanner(options: rules.applying(to: options))
        return rules.apply(to: planner.plan(inputAt: url))
    }

    /// `explain` under the rule configuration: its thresholds plan the input, and its severities
    /// (and `off`) apply to the findings. An unusable configuration is the failure.
    public func explain(inputAt url: URL, from: String, to: String, configuration: URL?) -> Result<ExplainReport, ExplainFailure> {
        let read = RuleConfiguration.governing(inputAt: url, file: configuration, baseDirectory: options.baseDirectory)
        guard let rules = read.configuration else { return .failure(ExplainFailure(read.diagnostics)) }
        return ChainPlanner(options: rules.applying(to: options)).explain(inputAt: url, from: from, to: to).map { report in
            var report = report
            report.diagnostics = rules.apply(to: report.diagnostics)
            return report
        }
    }

    /// `lock` under the rule configuration. An unusable configuration gives no lock, and its CP130
    /// findings are the report's.
    public func lock(inputAt url: URL, versions requested: [String]?, force: Bool = false, configuration: URL?) -> LockPlan {
        let read = RuleConfiguration.governing(inputAt: url, file: configuration, baseDirectory: options.baseDirectory)
        guard let rules = read.configuration else {
            return .made(lock: nil, file: url.deletingLastPathComponent().appendingPathComponent(ChainLock.fileName),
                            report: ChainReport.unusable(spec: DisplayPath.make(url, relativeTo: options.baseDirectory), diagnostics: read.diagnostics),
                            missing: [])
        }
        var plan = ChainPlanner(options: rules.applying(to: options)).lock(inputAt: url, versions: requested, force: force)
        plan.report = rules.apply(to: plan.report)
        return plan
    }

    /// A dry run under the rule configuration: its thresholds (`heavyweight-memory-mb` unless
    /// `options.memoryLimitBytes` is set, as by `--memory-limit`) and its severities.
    public func dryRun(inputAt url: URL, storeAt storePath: String, options dryRun: DryRunOptions, configuration: URL?) -> ChainReport {
        let read = RuleConfiguration.governing(inputAt: url, file: configuration, baseDirectory: options.baseDirectory)
        guard let rules = read.configuration else {
            return ChainReport.unusable(spec: DisplayPath.make(url, relativeTo: options.baseDirectory), diagnostics: read.diagnostics)
        }
        var dryRun = dryRun
        if dryRun.memoryLimitBytes == nil, let megabytes = rules.heavyweightMemoryMB { dryRun.memoryLimitBytes = megabytes << 20 }
        return rules.apply(to: ChainPlanner(options: rules.applying(to: options)).dryRun(inputAt: url, storeAt: storePath, options: dryRun))
    }
}
