import Foundation

/// What `chainplan dry-run` adds to the report: the store, its detected version, and what each
/// step of its path would do to it.
public struct StoreReport: Sendable, Hashable, Codable {
    public struct Candidate: Sendable, Hashable, Codable {
        public var version: String
        public var score: Double
    }

    /// One step of the store's path, measured against the store's tables.
    public struct StepWork: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        public var migration: MigrationKind?
        /// `none`, `in-place SQL` (lightweight: columns added, tables rebuilt and copied, indexes
        /// rebuilt) or `load and re-insert` (heavyweight: every instance of the mapped entities).
        public var work: String
        /// Tables of entities the step changes, with their rows.
        public var tables: [TableRows]
        /// Heavyweight steps: `HeavyweightMemory.estimate` over every entity with rows.
        public var estimatedMemoryBytes: Int?
        /// What simulating the step on the scratch copy did (nil when not simulated).
        public var simulation: StepSimulation?
    }

    /// A table a step touches: the rows of the step's changed entities in it, summed, and
    /// those entities with their rows.
    public struct TableRows: Sendable, Hashable, Codable {
        public var name: String
        public var rows: Int
        public var entities: [EntityRows]
    }

    public struct EntityRows: Sendable, Hashable, Codable {
        public var name: String
        public var rows: Int
    }

    public var path: String
    public var detectedVersion: String?
    /// `hashes`, `identifiers` or `structure`; nil when undecided.
    public var evidence: String?
    public var candidates: [Candidate]
    public var walMode: Bool
    public var fileBytes: Int
    public var steps: [StepWork]

    enum CodingKeys: String, CodingKey {
        case path, detectedVersion, evidence, candidates, walMode, fileBytes, steps
    }

    /// `detectedVersion` and `evidence` are always present, null when unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(detectedVersion, forKey: .detectedVersion)
        try container.encode(evidence, forKey: .evidence)
        try container.encode(candidates, forKey: .candidates)
        try container.encode(walMode, forKey: .walMode)
        try container.encode(fileBytes, forKey: .fileBytes)
        try container.encode(steps, forKey: .steps)
    }
}

/// The memory a heavyweight migration holds: every instance of the mapped entities exists twice,
/// in the source and the destination context, and each object costs its row's payload plus a
/// fixed overhead (README, "Memory estimate": an assumption, not a measurement).
public enum HeavyweightMemory {
    /// Bytes per managed object beyond its row payload: the `NSManagedObject` and its object ID,
    /// its snapshot in the coordinator's row cache, boxed attribute values, and the migration
    /// manager's source ↔ destination association entry.
    public static let perObjectOverheadBytes = 512

    /// `rows × 2 × (averageRowBytes + perObjectOverheadBytes)`.
    public static func estimate(rows: Int, averageRowBytes: Int) -> Int {
        rows * 2 * (max(averageRowBytes, 1) + perObjectOverheadBytes)
    }
}

/// Byte counts for people: `512 bytes`, `3.5 KB`, `42 KB`, `1.2 MB`, `310 MB` (1 KB = 1024 bytes).
public enum ByteSize {
    public static func describe(_ bytes: Int) -> String {
        func scaled(_ value: Double, _ unit: String) -> String {
            value < 10 ? String(format: "%.1f %@", (value * 10).rounded(.up) / 10, unit) : "\(Int(value.rounded())) \(unit)"
        }
        if bytes < 1024 { return "\(bytes) \(bytes == 1 ? "byte" : "bytes")" }
        if bytes < 1 << 20 { return scaled(Double(bytes) / 1024, "KB") }
        if bytes < 1 << 30 { return scaled(Double(bytes) / Double(1 << 20), "MB") }
        return scaled(Double(bytes) / Double(1 << 30), "GB")
    }
}

/// An entity of the store with its table and rows.
public struct StoreEntityRows: Sendable, Hashable, Codable {
    public var name: String
    /// The entity's table (present even when it has no rows); null when the store has none.
    public var table: String?
    public var rows: Int

    enum CodingKeys: String, CodingKey { case name, table, rows }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(table, forKey: .table)
        try container.encode(rows, forKey: .rows)
    }
}

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

extension ChainPlanner {
    /// Plans the input, then reads a private copy of the store at `storePath` (never the store
    /// itself; the copy is removed before this returns), identifies its model version, and
    /// describes the path from that version with the tables and rows each step touches.
    public func dryRun(inputAt url: URL, storeAt storePath: String, options dryRun: DryRunOptions) -> ChainReport {
        let planned = planWithBundle(inputAt: url)
        var report = planned.report
        let bundle = planned.bundle
        guard let bundle else {
            if !report.diagnostics.hasUnusableInput {
                report.diagnostics.append(Diagnostic(.cp111, "a dry run needs a model bundle: the spec names none ('model')",
                                                     at: SourceLocation(file: report.spec)))
            }
            return report.resummarised()
        }
        let shown = DisplayPath.make(URL(fileURLWithPath: storePath), relativeTo: options.baseDirectory)
        let metadata: StoreMetadata
        let compiled: CompiledModelInfo?
        let copy: StoreScratchCopy
        do {
            copy = try StoreScratchCopy.make(storeAt: storePath, displayPath: shown, lockTimeout: dryRun.lockTimeout,
                                             temporaryDirectory: dryRun.temporaryDirectory, progress: dryRun.phase(.copy))
        } catch {
            report.diagnostics.append(error.diagnostic)
            return report.resummarised()
        }
        defer { copy.remove() }
        do {
            var reader = StoreReader()
            reader.progress = dryRun.phase(.read)
            metadata = try reader.read(copy: copy)
            compiled = try dryRun.momd.map { path throws(StoreError) in try CompiledModelInfo.read(momdAt: path) }
        } catch {
            report.diagnostics.append(error.diagnostic)
            return report.resummarised()
        }
        let identification = StoreIdentifier.identify(metadata: metadata, versions: bundle.versions, compiled: compiled)
        report.diagnostics += metadata.diagnostics + identification.diagnostics

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
        if let detected = identification.detectedVersion {
            report.paths = report.paths.filter { $0.start == detected }
            // Findings about steps this store never takes, or about other starts' direct jumps,
            // are not about this store.
            let chainSteps = Set(report.steps.map { [$0.from, $0.to] })
            let pathSteps = Set((report.paths.first?.steps ?? []).map { [$0.from, $0.to] })
            report.diagnostics.removeAll { diagnostic in
                (chainSteps.contains(diagnostic.versions) && !pathSteps.contains(diagnostic.versions))
                    || (diagnostic.code == .cp207 && diagnostic.versions.first != detected)
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
                let tables = perTable.map { StoreReport.TableRows(name: $0.key, rows: $0.value.reduce(0) { $0 + $1.rows }, entities: $0.value) }
                    .sorted { $0.name < $1.name }
                switch step.migration {
                case .heavyweight?:
                    // Every instance of the mapped entities is loaded and re-inserted: all entities with rows.
                    let bytes = byName.values.reduce(0) { $0 + HeavyweightMemory.estimate(rows: $1.rows, averageRowBytes: $1.rowBytes) }
                    work.append(.init(from: step.from, to: step.to, migration: step.migration, work: "load and re-insert",
                                      tables: tables, estimatedMemoryBytes: bytes))
                    let limit = dryRun.memoryLimitBytes ?? DryRunOptions.defaultMemoryLimitBytes
                    if bytes > limit {
                        report.diagnostics.append(Diagnostic(.cp303,
                            "'\(step.from)' → '\(step.to)' is heavyweight and would hold about \(ByteSize.describe(bytes)) of objects from '\(shown)' at once, over the "
                                + "\(ByteSize.describe(limit)) limit; split the mapping model into passes by entity",
                            at: SourceLocation(file: shown), versions: [step.from, step.to]))
                    }
                case .none?:
                    work.append(.init(from: step.from, to: step.to, migration: step.migration, work: "none", tables: [], estimatedMemoryBytes: nil))
                default:
                    work.append(.init(from: step.from, to: step.to, migration: step.migration, work: "in-place SQL", tables: tables, estimatedMemoryBytes: nil))
                }
            }
            // Core Data cannot open a store whose metadata is unreadable: nothing to simulate.
            if dryRun.simulate, !metadata.diagnostics.hasUnusableInput {
                simulate(&work, copy: copy, bundle: bundle, options: dryRun, shown: shown, deferring: planned.deferring, diagnostics: &report.diagnostics)
            }
        } else {
            report.paths = []
        }
        report.store = StoreReport(
            path: shown, detectedVersion: identification.detectedVersion, evidence: identification.evidence?.rawValue,
            candidates: identification.candidates.map { .init(version: $0.version, score: ($0.score * 1000).rounded() / 1000) },
            walMode: metadata.isWALMode, fileBytes: metadata.fileBytes, steps: work)
        report.entities = entities.sorted { $0.name < $1.name }
        return report.resummarised()
    }
}

extension ChainPlanner {
    /// Runs the steps of `work` on the scratch copy and attaches what each did.
    private func simulate(
        _ work: inout [StoreReport.StepWork], copy: StoreScratchCopy, bundle: ModelBundle, options: DryRunOptions, shown: String,
        deferring: Bool, diagnostics: inout [Diagnostic]
    ) {
        var steps: [MigrationSimulator.Step] = []
        var positions: [Int] = []
        for (position, step) in work.enumerated() where step.migration != MigrationKind.none {
            guard let source = bundle.version(named: step.from)?.model, let destination = bundle.version(named: step.to)?.model else { break }
            steps.append(.init(from: step.from, to: step.to, source: source, destination: destination,
                               deferring: deferring && step.migration == .lightweight))
            positions.append(position)
        }
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

extension ChainReport {
    /// Diagnostics sorted and the summary recomputed.
    func resummarised() -> ChainReport {
        var copy = self
        copy.diagnostics.sort()
        copy.summary = Summary(diagnostics: copy.diagnostics)
        return copy
    }
}

extension ChainPlanner {
    /// The model bundle the input names (or is), when it can be read.
    public func bundle(inputAt url: URL) -> ModelBundle? {
        planWithBundle(inputAt: url).bundle
    }
}
