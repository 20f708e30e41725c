import ChainPlanCore
import ChainPlanHashing
import ChainPlanPlanning
import ChainPlanReaders
import ChainPlanStore
import ChainPlanSwiftSource
import Foundation

// The pipeline, in one place. Every command runs the same stages, each a plain value passed on:
//
//     input URL ──ProjectLoader.load──▶ LoadedProject ──ChainPlanner.plan──▶ PlanOutcome (ChainReport)
//         ──▶ explain / lock / passes / stage plan (PlanOutcome's functions)
//         ──▶ StoreDryRun.run (DryRunReport) ──▶ Reporters (ChainPlanOutput, in the CLI)
//
// Files are read by the loading stage and by the store stage (a private copy of the store);
// the stages between them compute on values. The rule configuration applies at the end of
// each entry point (`ConfiguredRun.finish`).

extension ChainPlanner {
    /// Loads and plans whatever `url` is (a spec, or a bundle given directly).
    package func planned(inputAt url: URL) -> PlanOutcome {
        plan(ProjectLoader(options: options).load(inputAt: url))
    }

    /// Plans whatever `url` is: a chain spec, or an `.xcdatamodeld` bundle given directly
    /// (then the chain is every version in natural version order, with CP110).
    public func plan(inputAt url: URL) -> ChainReport { planned(inputAt: url).report }

    /// Plans the spec file at `url`.
    public func plan(specAt url: URL) -> ChainReport { plan(ProjectLoader(options: options).load(specAt: url)).report }

    /// Plans a bundle without a spec: the chain is inferred from version names.
    public func plan(bundleAt url: URL) -> ChainReport { plan(ProjectLoader(options: options).load(bundleAt: url)).report }

    /// The model bundle the input names (or is), when it can be read.
    public func bundle(inputAt url: URL) -> ModelBundle? {
        planned(inputAt: url).bundle
    }

    /// The inferred mapping between two versions of the input's bundle, classified like a step
    /// (a mapping model that covers exactly this pair counts).
    public func explain(inputAt url: URL, from: String, to: String) -> Result<ExplainReport, ExplainFailure> {
        planned(inputAt: url).explain(from: from, to: to)
    }

    /// The lock of `versions` (default: every bundle version except the target, the versions that
    /// have shipped), merged with the existing `chain.lock` beside the input: its versions stay as
    /// they were locked, new ones are appended. `force` rewrites the lock from the bundle alone,
    /// and reports every locked version it rewrites or drops.
    public func lock(inputAt url: URL, versions requested: [String]?, force: Bool = false) -> LockPlan {
        planned(inputAt: url).lockPlan(file: url.deletingLastPathComponent().appendingPathComponent(ChainLock.fileName),
                                       versions: requested, force: force)
    }

    /// The multi-pass plan of the step `from` → `to` of the input's bundle (reference §8).
    /// `rows`: per source entity, from a store (`store` names it in the report);
    /// `maxMemoryBytes`: the budget passes are packed under.
    public func passes(inputAt url: URL, from: String, to: String, rows: [String: PassRows]? = nil, store: String? = nil,
                       maxMemoryBytes: Int? = nil) -> Result<PassReport, PassFailure> {
        planned(inputAt: url).passes(from: from, to: to, rows: rows, store: store, maxMemoryBytes: maxMemoryBytes)
    }

    /// Plans staged migration for whatever `url` is (a spec with a model, or a bundle).
    /// `identities` gives each version's checksum and entity hashes (a compiled model's
    /// `VersionInfo.plist`, or a hash engine); nil when none are known.
    /// `marked`: more steps to run as custom stages (`.chainplan.yml`'s `stages`).
    /// `computingIdentities`: when `identities` gives none, the checksums come from the hashes
    /// the step classifier computes (Core Data's algorithm, no second hashing of the bundle).
    public func stagePlan(inputAt url: URL, identities: (ModelBundle) -> VersionIdentities?, computingIdentities: Bool = false,
                          marked extra: [StepKey] = []) -> StagePlanOutcome {
        stagePlan(inputAt: url, loaded: nil, identities: identities, computingIdentities: computingIdentities, marked: extra)
    }

    /// `stagePlan(inputAt:…)`, from `loaded` when `url` was already loaded (`SwiftDataStages`).
    package func stagePlan(inputAt url: URL, loaded: ProjectLoader.Loaded?, identities: (ModelBundle) -> VersionIdentities?,
                           computingIdentities: Bool = false, marked extra: [StepKey] = []) -> StagePlanOutcome {
        var planner = self
        planner.keepsClassifications = true
        return planner.plan(loaded ?? ProjectLoader(options: options).load(inputAt: url)).stagePlan(inputAt: url, identities: identities, computingIdentities: computingIdentities, marked: extra)
    }

    /// The SwiftData migration plan of the Swift sources `url` is or names, for `stage`: audited
    /// as Core Data's staged migration runs it when it has stages (the sources' and the plan's
    /// findings, and each start's run when its translated stages could be audited); the plan
    /// alone when its `stages` is empty; nil when the input is not SwiftData sources with a plan.
    package func swiftDataStages(inputAt url: URL) -> SwiftDataStages? {
        guard let (project, plan) = swiftData(inputAt: url) else { return nil }
        guard let audited = SwiftDataPlanCheck.audit(of: project) else { return .withoutStages(plan, loaded: .project(project)) }
        return .audited(plan: audited.plan, starts: audited.starts, findings: audited.findings)
    }

    /// The SwiftData migration plan of the Swift sources `url` is or names; nil when there is none.
    package func swiftDataPlan(inputAt url: URL) -> SwiftMigrationPlan? {
        swiftData(inputAt: url)?.plan
    }

    /// The project loaded from the Swift sources `url` is or names, with their migration plan.
    private func swiftData(inputAt url: URL) -> (project: LoadedProject, plan: SwiftMigrationPlan)? {
        // Only Swift sources, or a spec that names them, are loaded here (the rest is loaded once, by `stagePlan`).
        let namesSources = SwiftSourceLocator.isSwiftSource(url) || (!ModelBundleLocator.isBundle(url)
            && SpecReader(maxBytes: options.maxSpecBytes, codes: PlanningRules.all).read(fileAt: url, displayPath: url.lastPathComponent).spec?.swiftData != nil)
        guard namesSources, case .project(let project) = ProjectLoader(options: options).load(inputAt: url),
              let plan = project.swiftData?.plan else { return nil }
        return (project, plan)
    }

    /// What `StageListAudit` needs to audit a user's stage list against the chain at `url`.
    public func stageAuditInput(inputAt url: URL, identities: VersionIdentities, order: [String]) -> StageListAudit.Input? {
        planned(inputAt: url).stageAuditInput(identities: identities, order: order)
    }

    /// Plans the input, then reads a private copy of the store at `storePath` (never the store
    /// itself; the copy is removed before this returns), identifies its model version, and
    /// describes the path from that version with the tables and rows each step touches.
    public func dryRun(inputAt url: URL, storeAt storePath: String, options dryRun: DryRunOptions) -> DryRunReport {
        StoreDryRun.run(planned(inputAt: url), storeAt: storePath, options: dryRun, baseDirectory: options.baseDirectory)
    }

    // MARK: Under the project's rule configuration

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

    /// The multi-pass plan of `from` → `to` under the rule configuration that governs `url` (as
    /// every other command: `configuration`, else `.chainplan.yml` beside the spec): its severities
    /// (and `off`) apply to the findings, and its `heavyweight-memory-mb` is the budget when
    /// `maxMemoryBytes` is nil. The passes are sized by the rows of the store at `storePath` (read
    /// from a private copy) when one is given; the store is identified by its version hashes, as
    /// the dry run does, and a store at another version than `from` is CP708 (one that matches no
    /// version, or several, is CP301 or CP302). An unreadable store is CP300; an unusable
    /// configuration is CP130.
    public func passes(inputAt url: URL, from: String, to: String, storeAt storePath: String?, maxMemoryBytes: Int?,
                       configuration: URL? = nil, lockTimeout: TimeInterval = 5) -> Result<PassReport, PassFailure> {
        let run: ConfiguredRun
        switch configured(inputAt: url, configuration: configuration) {
        case .failure(let failure): return .failure(PassFailure(failure.diagnostics))
        case .success(let configured): run = configured
        }
        let budget = maxMemoryBytes ?? run.rules.heavyweightMemoryMB.map { $0 << 20 }
        let planned = run.planner.planned(inputAt: url)
        var storeFindings: [Diagnostic] = []
        var rows: [String: PassRows]?
        var shown: String?
        if let storePath {
            let display = DisplayPath.make(URL(fileURLWithPath: storePath), relativeTo: options.baseDirectory)
            do {
                let read = try StoreEntityRowCounts.read(storeAt: storePath, displayPath: display, versions: planned.bundle?.versions ?? [],
                                                         lockTimeout: lockTimeout)
                (rows, shown) = (read.rows, display)
                storeFindings = read.identification.passStoreFindings(from: from, to: to, store: display)
            } catch {
                return .failure(PassFailure([error.diagnostic]))
            }
        }
        return planned.passes(from: from, to: to, rows: rows, store: shown, maxMemoryBytes: budget).map { report in
            var report = report
            report.diagnostics = run.rules.apply(to: report.diagnostics + storeFindings).sorted()
            return report
        }
    }
}

/// SwiftData sources, without a build: the reader (`ChainPlanSwiftSource`) turns a Swift file or
/// folder into one object model per schema version, and the hashing stage hashes each like a
/// bundle's version.
///
///     Swift file or folder ──SwiftDataReader.read──▶ SwiftDataProject ──ModelHasher──▶ VersionHashes
package enum SwiftDataPipeline {
    /// Every schema version of the sources at `url` with its hashes (a failure where the reader
    /// built no model), and the reader's findings.
    package static func hash(sourcesAt url: URL, displayPath: String, withProperties: Bool, configuration: StatedConfiguration = .default)
        -> (project: SwiftDataProject, hashes: [(version: SwiftSchemaVersion, hashes: VersionHashes)]) {
        let project = SwiftDataReader.read(at: url, displayPath: displayPath, configuration: configuration)
        let hashes = project.versions.map { version -> (version: SwiftSchemaVersion, hashes: VersionHashes) in
            let path = version.location?.file ?? displayPath
            guard let model = version.model else {
                return (version, VersionHashes(version: version.name, path: path,
                                               result: .failure(HashFailure("schema '\(version.name)' has no model: \(version.failure ?? "it cannot be read")"))))
            }
            return (version, VersionHashes(version: version.name, path: path, result: ModelHasher.hash(model, withProperties: withProperties)))
        }
        return (project, hashes)
    }

    /// The sources at `url` read as a model bundle (one version per schema, the plan's schemas
    /// when it has one, as planning reads them), for commands that take a bundle (`inspect`).
    package static func bundle(sourcesAt url: URL, displayPath: String, configuration: StatedConfiguration = .default) -> ModelBundleReadResult {
        let chain = SwiftDataChain(SwiftDataReader.read(at: url, displayPath: displayPath, configuration: configuration), path: displayPath, written: nil)
        let usable = !chain.findings.hasUnusableInput && !chain.bundle.versions.isEmpty
        return ModelBundleReadResult(bundle: usable ? chain.bundle : nil, diagnostics: chain.findings.sorted())
    }
}

/// What `stage` shows for a SwiftData plan (`ChainPlanner.swiftDataStages(inputAt:)`).
package enum SwiftDataStages {
    /// The plan's stages audited: each start's run (nil: none simulated) and every finding.
    case audited(plan: SwiftMigrationPlan, starts: [StageRun]?, findings: [Diagnostic])
    /// A plan whose `stages` is empty: SwiftData migrates every older store straight to the last
    /// schema. `loaded` is the project, for planning the stages it needs without reading it again.
    case withoutStages(SwiftMigrationPlan, loaded: ProjectLoader.Loaded)
}
