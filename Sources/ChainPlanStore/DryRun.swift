import ChainPlanCore
import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders
import Foundation

/// A phase of a dry run, for progress.
public enum DryRunPhase: Sendable, Hashable {
    /// Copying the store (and its side files) into the scratch directory.
    case copy
    /// Reading the copy's schema and counting rows.
    case read
    /// Simulating step `step` (from 1) of `of`.
    case simulate(step: Int, of: Int)
}

/// Options of a dry run.
public struct DryRunOptions: Sendable {
    /// A heavyweight step estimated above this many bytes raises CP303 (nil: the configuration's
    /// `heavyweight-memory-mb`, else `defaultMemoryLimitBytes`).
    public var memoryLimitBytes: Int?
    /// 100 MB.
    public static let defaultMemoryLimitBytes = 100 << 20
    /// How long to wait for another process's write lock on the store, in seconds.
    public var lockTimeout: TimeInterval = 5
    /// The compiled model (`X.momd`), whose version hashes identify the store exactly.
    public var momd: String?
    /// Apply each step's schema changes to the scratch copy and check the data (CP304).
    public var simulate = true
    /// Put up to three offending values in CP304 messages (off: stores hold personal data).
    public var showValues = false
    /// Receives every SQL statement the simulation runs, in order (each ends with `;`).
    public var sqlLog: (@Sendable (String) -> Void)?
    /// Simulation progress: (step number from 1, steps, fraction of that step done).
    public var progress: (@Sendable (Int, Int, Double) -> Void)?
    /// Progress of every phase (copy, read, simulation), with the fraction of the phase done.
    public var phaseProgress: (@Sendable (DryRunPhase, Double) -> Void)?
    /// Where the private scratch directory is made (default: the system temporary directory,
    /// which honours `TMPDIR`).
    public var temporaryDirectory: URL?
    /// SQLite work on the copy is interrupted after this many seconds.
    public var queryTimeout: TimeInterval = 3600

    public init() {}

    /// `phaseProgress` for one phase.
    func phase(_ phase: DryRunPhase) -> (@Sendable (Double) -> Void)? {
        guard let report = phaseProgress else { return nil }
        return { fraction in report(phase, fraction) }
    }
}

/// The store side of a dry run: takes the planner's result for the input (`ChainPlanner.dryRun`
/// in ChainPlanKit plans it) and reports it with what the store at `storePath` holds and what
/// each step would do to it.
package enum StoreDryRun {
    /// Reads a private copy of the store at `storePath` (never the store itself; the copy is
    /// removed before this returns), identifies its model version, and describes the path from
    /// that version with the tables and rows each step touches. Paths are shown relative to
    /// `baseDirectory`.
    package static func run(_ planned: PlanOutcome, storeAt storePath: String, options dryRun: DryRunOptions, baseDirectory: URL) -> DryRunReport {
        var report = planned.report
        let bundle = planned.bundle
        guard let bundle else {
            if !report.diagnostics.hasUnusableInput {
                report.diagnostics.append(Diagnostic(.unreadableModelBundle, "a dry run needs a model bundle: the spec names none ('model')",
                                                     at: SourceLocation(file: report.spec)))
            }
            return DryRunReport(plan: report.resummarised())
        }
        let shown = DisplayPath.make(URL(fileURLWithPath: storePath), relativeTo: baseDirectory)
        let metadata: StoreMetadata
        let compiled: CompiledModelInfo?
        let copy: StoreScratchCopy
        do {
            copy = try StoreScratchCopy.make(storeAt: storePath, displayPath: shown, lockTimeout: dryRun.lockTimeout,
                                             temporaryDirectory: dryRun.temporaryDirectory, progress: dryRun.phase(.copy))
        } catch {
            report.diagnostics.append(error.diagnostic)
            return DryRunReport(plan: report.resummarised())
        }
        defer { copy.remove() }
        do {
            var reader = StoreReader()
            reader.progress = dryRun.phase(.read)
            metadata = try reader.read(copy: copy)
            compiled = try dryRun.momd.map { path throws(StoreError) in try CompiledModelInfo.read(momdAt: path) }
        } catch {
            report.diagnostics.append(error.diagnostic)
            return DryRunReport(plan: report.resummarised())
        }
        let identification = StoreIdentifier.identify(metadata: metadata, versions: bundle.versions, compiled: compiled)
        report.diagnostics += metadata.diagnostics + identification.diagnostics
        // Deferred work the store already holds (reference §7.3), checked against its version.
        let pending = StoreDeferredWork.pending(in: metadata)
        var deferredMismatch = false
        if let detected = identification.detectedVersion, let model = bundle.version(named: detected)?.model {
            let mismatches = StoreDeferredWork.mismatches(pending, metadata: metadata, model: model, version: detected, displayPath: shown)
            deferredMismatch = !mismatches.isEmpty
            report.diagnostics += mismatches
        }

        // Rows per entity, under the names the detected version gives them (a store may still
        // list a renamed entity under its renaming identifier).
        let aliases = identification.detectedVersion.flatMap { bundle.version(named: $0)?.model }.map(EntityAliases.of) ?? [:]
        let applicable = EntityAliases.applicable(aliases, present: Set(metadata.entities.map(\.name)))
        struct Held { var table: String; var rows: Int; var rowBytes: Int }
        var byName: [String: Held] = [:]
        var entities: [StoreEntityRows] = []
        for entity in metadata.entities where !entity.isSystemEntity {
            let name = EntityAliases.resolve(entity.name, applicable)
            let table = metadata.table(of: entity)
            let rows = table?.rowCountsByEntity[entity.number] ?? entity.rowCount ?? 0
            entities.append(StoreEntityRows(name: name, table: table?.name, rows: rows))
            if let table, byName[name] == nil { byName[name] = Held(table: table.name, rows: rows, rowBytes: table.averageRowBytes ?? 0) }
        }

        var work: [StoreReport.StepWork] = []
        var finish: DeferredFinishSimulation?
        if let detected = identification.detectedVersion {
            report.paths = report.paths.filter { $0.start == detected }
            // Findings about steps this store never takes, or about other starts' direct jumps,
            // are not about this store. A cycle is about the whole chain, however many versions
            // it has (a two-version cycle names exactly the versions of a step).
            let chainSteps = Set(report.steps.map { [$0.from, $0.to] })
            let pathSteps = Set((report.paths.first?.steps ?? []).map { [$0.from, $0.to] })
            report.diagnostics.removeAll { diagnostic in
                (diagnostic.code != .migrationCycle && chainSteps.contains(diagnostic.versions) && !pathSteps.contains(diagnostic.versions))
                    || (diagnostic.code == .directJumpFails && diagnostic.versions.first != detected)
            }
            let steps = Dictionary(report.steps.map { (StepKey(from: $0.from, to: $0.to), $0) }, uniquingKeysWith: { first, _ in first })
            for pathStep in report.paths.first?.steps ?? [] {
                guard let step = steps[StepKey(from: pathStep.from, to: pathStep.to)] else { continue }
                let changed = Set((step.changes ?? []).map(\.entity))
                // Per table: the rows of the step's changed entities in it, summed.
                var perTable: [String: [StoreReport.EntityRows]] = [:]
                for name in changed.sorted() {
                    guard let held = byName[name] else { continue }
                    perTable[held.table, default: []].append(.init(name: name, rows: held.rows))
                }
                let tables = perTable.map { StoreReport.TableRows(name: $0.key, entities: $0.value) }
                    .sorted { $0.name < $1.name }
                switch step.migration {
                case .heavyweight?:
                    // Every instance of the mapped entities is loaded and re-inserted: all entities with rows.
                    let bytes = byName.values.reduce(0) { $0 + HeavyweightMemory.estimate(rows: $1.rows, averageRowBytes: $1.rowBytes) }
                    work.append(.init(step: step, work: "load and re-insert", tables: tables, estimatedMemoryBytes: bytes))
                    let limit = dryRun.memoryLimitBytes ?? DryRunOptions.defaultMemoryLimitBytes
                    if bytes > limit {
                        report.diagnostics.append(.heavyweightMemory(from: step.from, to: step.to, bytes: bytes, limit: limit, store: shown))
                    }
                case .none?:
                    work.append(.init(step: step, work: "none"))
                default:
                    work.append(.init(step: step, work: "in-place SQL", tables: tables))
                }
            }
            // Core Data cannot open a store whose metadata is unreadable: nothing to simulate.
            if dryRun.simulate, !metadata.diagnostics.hasUnusableInput, !deferredMismatch {
                simulate(&work, copy: copy, bundle: bundle, options: dryRun, shown: shown, deferring: planned.deferring, diagnostics: &report.diagnostics)
                if planned.deferring, let model = bundle.version(named: work.last?.to ?? detected)?.model {
                    finish = finishDeferred(work, copy: copy, model: model, storeAt: storePath, bundle: bundle, options: dryRun, shown: shown)
                }
            }
        } else {
            report.paths = []
        }
        var store = StoreReport(
            path: shown, detectedVersion: identification.detectedVersion, evidence: identification.evidence?.rawValue,
            candidates: identification.candidates.map { .init(version: $0.version, score: $0.score) },
            walMode: metadata.isWALMode, fileBytes: metadata.fileBytes, steps: work)
        store.pendingDeferred = pending.isEmpty ? nil : pending
        store.deferredFinish = finish
        return DryRunReport(plan: report.resummarised(), store: store, entities: entities.sorted { $0.name < $1.name })
    }
}

extension StoreDryRun {
    /// Runs the steps of `work` on the scratch copy and attaches what each did.
    private static func simulate(
        _ work: inout [StoreReport.StepWork], copy: StoreScratchCopy, bundle: ModelBundle, options: DryRunOptions, shown: String,
        deferring: Bool, diagnostics: inout [Diagnostic]
    ) {
        let (steps, positions) = simulationSteps(work, bundle: bundle, deferring: deferring)
        var simulator = MigrationSimulator(displayPath: shown)
        simulator.showValues = options.showValues
        simulator.sqlLog = options.sqlLog
        let progress = options.progress
        let phase = options.phaseProgress
        if progress != nil || phase != nil {
            simulator.progress = { (step: Int, steps: Int, fraction: Double) in
                progress?(step, steps, fraction)
                phase?(.simulate(step: step, of: steps), fraction)
            }
        }
        let outcome = simulator.run(copyAt: copy.storeURL.path, steps: steps, queryTimeout: options.queryTimeout)
        for (position, simulation) in zip(positions, outcome.simulations) {
            work[position].simulation = simulation
        }
        diagnostics += outcome.diagnostics
    }
}

extension StoreDryRun {
    /// The steps of `work` that migrate, with their positions in `work`.
    private static func simulationSteps(_ work: [StoreReport.StepWork], bundle: ModelBundle, deferring: Bool) -> ([MigrationSimulator.Step], [Int]) {
        var steps: [MigrationSimulator.Step] = []
        var positions: [Int] = []
        for (position, step) in work.enumerated() where step.migration != MigrationKind.none {
            guard let source = bundle.version(named: step.from)?.model, let destination = bundle.version(named: step.to)?.model else { break }
            steps.append(.init(from: step.from, to: step.to, source: source, destination: destination,
                               deferring: deferring && step.migration == .lightweight))
            positions.append(position)
        }
        return (steps, positions)
    }

    /// `dry-run --deferred`: finishes the deferred work on the copy the simulation left (the
    /// path's renames and whatever the store already held), then runs the same steps without
    /// the option on a second private copy, for the comparison.
    private static func finishDeferred(_ work: [StoreReport.StepWork], copy: StoreScratchCopy, model: ObjectModel, storeAt storePath: String,
                                       bundle: ModelBundle, options: DryRunOptions, shown: String) -> DeferredFinishSimulation {
        var finisher = DeferredFinisher()
        finisher.sqlLog = options.sqlLog
        var finished = finisher.run(copyAt: copy.storeURL.path, model: model, queryTimeout: options.queryTimeout)
        // The same steps without the option, on a copy of their own (never logged: the SQL log
        // is the deferred run's script).
        var without: [Int: StepSimulation] = [:]
        let (steps, positions) = simulationSteps(work, bundle: bundle, deferring: false)
        if !steps.isEmpty, let second = try? StoreScratchCopy.make(storeAt: storePath, displayPath: shown, lockTimeout: options.lockTimeout,
                                                                   temporaryDirectory: options.temporaryDirectory, progress: nil) {
            defer { second.remove() }
            let outcome = MigrationSimulator(displayPath: shown).run(copyAt: second.storeURL.path, steps: steps, queryTimeout: options.queryTimeout)
            for (position, simulation) in zip(positions, outcome.simulations) { without[position] = simulation }
        }
        finished.steps = positions.map { position in
            DeferredFinishSimulation.Step(from: work[position].from, to: work[position].to,
                                          deferred: work[position].simulation, withoutDeferral: without[position])
        }
        return finished
    }
}
