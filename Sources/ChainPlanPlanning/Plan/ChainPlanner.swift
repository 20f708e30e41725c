import ChainPlanCore
import ChainPlanGraph
import ChainPlanHistory
import ChainPlanInference
import ChainPlanReaders
import ChainPlanSwiftSource
import Foundation

/// Options that shape a planning run.
public struct PlanOptions: Sendable {
    /// Largest spec accepted, in bytes.
    public var maxSpecBytes: Int = 16 << 20
    /// Allow a spec's `model` (and mapping paths) to point outside the spec's folder.
    public var allowOutsideSpecDirectory = false
    /// Directory display paths are made relative to.
    public var baseDirectory: URL = DisplayPath.currentDirectory
    /// When the total number of path steps would exceed this, paths list only `next`/`length`
    /// (every path can be followed through `next`). Listing every step of every path grows with
    /// the square of the chain's length: a 1,000-version array alone would list 500,000 steps.
    public var maxListedPathSteps = 100_000
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` is passed to the store
    /// (`--deferred`, or `deferredLightweightMigration: true` in the spec or configuration).
    public var deferredLightweightMigration = false
    /// With the option on, also analyse each direct jump's SQLite work (`Path.direct.sqlite`,
    /// which only JSON output shows). A caller whose output does not show it sets this to false:
    /// a long history's direct jumps change nearly every table, and the analysis would cost as
    /// much as the rest of the plan.
    public var analysesDirectJumpWork = true
    /// A git revision whose model bundle is what shipped (`--against`): every version it holds
    /// is checked like a locked one (CP401, CP402, CP406–CP409).
    public var against: String?
    /// Steps the rule configuration's `stages` marks as custom stages (beside the spec's).
    public var customStages: [StepKey] = []
    /// The build configuration SwiftData sources' `#if` is decided under.
    package var swiftConfiguration = StatedConfiguration.default
    /// The `git` executable `against` is read with.
    package var git = Git.onPath()

    public init() {}
}

/// Runs the pipeline: spec → graph → (model) → checks → paths → report.
public struct ChainPlanner: Sendable {
    public var options: PlanOptions
    /// Keep the classifier and every classified pair in the outcome (`stagePlan` judges them again).
    package var keepsClassifications = false

    public init(options: PlanOptions = PlanOptions()) {
        self.options = options
    }

    /// The planning stage: classifies the loaded project's chain and plans every start's path;
    /// the findings of loading join the plan's, and the spec's acceptances apply to them all.
    package func plan(_ loaded: ProjectLoader.Loaded) -> PlanOutcome {
        switch loaded {
        case .unusable(let report):
            return PlanOutcome(report: report)
        case .project(let project):
            // For SwiftData sources the plan alone says which stages are custom.
            var outcome = self.outcome(spec: project.spec, bundle: project.bundle, isInferred: project.isInferred,
                                       mappingModels: project.mappingModels, configuredStages: project.swiftData == nil ? options.customStages : [])
            var findings = outcome.report.diagnostics + project.findings
            if let swiftData = project.swiftData {
                // SwiftData's own check of equal checksums (CP610) stands for CP123.
                findings = findings.filter { $0.code != .hashIdenticalVersions } + SwiftDataPlanCheck.findings(swiftData)
            }
            outcome.report.setFindings(Acceptances.apply(project.spec.acceptances, to: findings, lockedVersions: project.lockedVersions))
            return outcome
        }
    }

    /// Plans an already-read spec against an optional, already-read bundle.
    public func plan(spec: ChainSpec, bundle: ModelBundle?, isInferred: Bool) -> ChainReport {
        plan(spec: spec, bundle: bundle, isInferred: isInferred, mappingModels: LoadedMappingModels())
    }

    func plan(spec: ChainSpec, bundle: ModelBundle?, isInferred: Bool, mappingModels: LoadedMappingModels) -> ChainReport {
        outcome(spec: spec, bundle: bundle, isInferred: isInferred, mappingModels: mappingModels).report
    }

    /// `configuredStages`: the rule configuration's custom stages, where they apply.
    func outcome(spec: ChainSpec, bundle: ModelBundle?, isInferred: Bool, mappingModels: LoadedMappingModels,
                 configuredStages: [StepKey]? = nil) -> PlanOutcome {
        let configuredStages = configuredStages ?? options.customStages
        let deferring = options.deferredLightweightMigration || spec.deferredLightweightMigration == true
        var graph = ChainGraph.build(from: spec)
        if let bundle {
            for version in bundle.versions { graph.add(version.name, at: nil) }
            // No progressive migration: every version goes straight to the target (the spec's
            // `target` when it names one, else the bundle's current version).
            if spec.form == .empty, let name = spec.target?.value ?? bundle.currentVersion, let target = graph.index[name] {
                for version in 0..<graph.count where version != target {
                    graph.addEdge(from: version, to: target, at: nil)
                }
            }
        }
        let context = ChainContext(spec: spec, graph: graph, bundle: bundle, isInferred: isInferred)
        var diagnostics = ChainChecks.run(context) + spec.mappingEntriesOffChain(graph)
        var paths = PathListing(context: context, maxListedSteps: options.maxListedPathSteps)
        var classification: ChainClassification?
        var covering: [StepKey: StepMappingModel] = [:]
        var matchedModels: [StepKey: [MappingModel]] = [:]
        if let bundle {
            let steps = graph.edges.map { StepKey(from: graph.versions[$0.from], to: graph.versions[$0.to]) }
            // Hashed once, for matching the mapping models and for classifying.
            let versionHashes = bundle.versionHashes(withProperties: false)
            let matched = MatchedMappingModels(mappingModels, bundle: bundle, steps: steps, versionHashes: versionHashes)
            let classified = ChainClassification(context: context, bundle: bundle, mappingModels: matched.byStep, deferring: deferring,
                                                 jumpWork: options.analysesDirectJumpWork, versionHashes: versionHashes,
                                                 keeping: keepsClassifications, configuredStages: configuredStages)
            diagnostics += classified.diagnostics + matched.diagnostics + mappingModels.diagnostics
            matchedModels = matched.modelsByPair
            diagnostics += PassSet.audits(matchedModels, steps: steps, bundle: bundle)
            // What following each path reads of its steps' work, reduced once per step (not once per path).
            let moving = classified.sqlite.mapValues(DeferredChain.movingTables)
            for index in paths.paths.indices {
                let start = paths.paths[index].start
                paths.paths[index].direct = classified.direct[start]
                if let target = paths.paths[index].target, (paths.paths[index].length ?? 0) >= 2 {
                    paths.paths[index].direct?.sqlite = classified.jumpSQLite[StepKey(from: start, to: target)]
                }
                if let steps = paths.paths[index].steps, !steps.isEmpty {
                    let chain = DeferredChain.follow(start: start, steps: steps.map { ($0.from, $0.to, moving[StepKey(from: $0.from, to: $0.to)]) })
                    paths.paths[index].deferral = chain.isEmpty ? nil : chain
                }
            }
            classification = classified
            covering = matched.byStep
        }
        diagnostics = HistoryOrder.sorted(diagnostics, versions: graph.versions)
        let report = ChainReport(
            spec: spec.file,
            model: bundle.map {
                ChainReport.ModelSummary(bundle: $0.path, currentVersion: $0.currentVersion, versions: $0.versionNames)
            },
            target: context.target.version.map { graph.versions[$0] },
            versions: graph.versions,
            steps: graph.edges.map { edge in
                let key = StepKey(from: graph.versions[edge.from], to: graph.versions[edge.to])
                var step = ChainReport.Step(from: key.from, to: key.to, classification: classification?.steps[key])
                step.sqlite = classification?.sqlite[key]
                return step
            },
            paths: paths.paths,
            pathsAbbreviated: paths.abbreviated ? true : nil,
            diagnostics: diagnostics,
            summary: ChainReport.Summary(diagnostics: diagnostics)
        )
        var outcome = PlanOutcome(report: report, bundle: bundle, mappingModels: covering, spec: spec, deferring: deferring)
        outcome.matchedMappingModels = matchedModels
        outcome.classified = classification?.kept
        outcome.configuredStages = configuredStages
        return outcome
    }
}

/// A plan and what it was made from.
package struct PlanOutcome {
    package var report: ChainReport
    /// The model bundle read, when there was one.
    package var bundle: ModelBundle?
    /// Every mapping model that is not stale, by the pair of versions its snapshots match,
    /// whether or not that pair is a step of the chain.
    var mappingModels: [StepKey: StepMappingModel] = [:]
    /// The spec planned (read, or inferred from a bundle).
    var spec: ChainSpec?
    /// Steps the rule configuration marks as custom stages.
    var configuredStages: [StepKey] = []
    /// The deferred lightweight migration option (the options' or the spec's).
    package var deferring = false
    /// Every mapping model that is not stale, by the pair it matches (several: a pass set).
    package var matchedMappingModels: [StepKey: [MappingModel]] = [:]
    /// The classifier and every classified pair, when the planner keeps them.
    var classified: ClassifiedPairs?
}

/// The path of every start version, built from the memoised reachability.
struct PathListing {
    var paths: [ChainReport.Path] = []
    var abbreviated = false

    init(context: ChainContext, maxListedSteps: Int) {
        let graph = context.graph
        let names = graph.versions
        let target = context.target.version
        var total = 0
        for fate in context.reachability.fates {
            if case .reaches(let length) = fate { total += length }
        }
        abbreviated = total > maxListedSteps
        paths.reserveCapacity(graph.count)
        for start in 0..<graph.count {
            let next = graph.successor[start] >= 0 && start != target ? names[graph.successor[start]] : nil
            let targetName = target.map { names[$0] }
            switch context.reachability.fates[start] {
            case .reaches(let length):
                var steps: [ChainReport.Step]?
                if !abbreviated {
                    var list: [ChainReport.Step] = []
                    list.reserveCapacity(length)
                    var current = start
                    for _ in 0..<length {
                        let following = graph.successor[current]
                        list.append(ChainReport.Step(from: names[current], to: names[following]))
                        current = following
                    }
                    steps = list
                }
                paths.append(ChainReport.Path(start: names[start], target: targetName, reachable: true,
                                              length: length, next: next, steps: steps))
            case .deadEnd(let end):
                let inChain = graph.firstLocation[start] != nil || graph.successor[start] >= 0
                paths.append(ChainReport.Path(start: names[start], target: targetName, reachable: false, length: nil,
                                              next: next, steps: nil,
                                              problem: inChain ? "dead-end" : "not-in-chain", stopsAt: names[end]))
            case .cycle(let member):
                paths.append(ChainReport.Path(start: names[start], target: targetName, reachable: false, length: nil,
                                              next: next, steps: nil, problem: "cycle", stopsAt: names[member]))
            case .noTarget:
                paths.append(ChainReport.Path(start: names[start], target: nil, reachable: false, length: nil,
                                              next: next, steps: nil, problem: "no-target"))
            }
        }
    }
}

extension ChainReport {
    /// A report for input that could not be used at all.
    public static func unusable(spec: String, diagnostics: [Diagnostic]) -> ChainReport {
        let sorted = diagnostics.sorted()
        return ChainReport(spec: spec, model: nil, target: nil, versions: [], steps: [], paths: [],
                           pathsAbbreviated: nil, diagnostics: sorted, summary: Summary(diagnostics: sorted))
    }
}
