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
        /// Heavyweight steps: rows × average row size of every mapped entity.
        public var estimatedMemoryBytes: Int?
        /// What simulating the step on the scratch copy did (nil when not simulated).
        public var simulation: StepSimulation?
    }

    public struct TableRows: Sendable, Hashable, Codable {
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
}

/// An entity of the store with its table and rows.
public struct StoreEntityRows: Sendable, Hashable, Codable {
    public var name: String
    public var table: String?
    public var rows: Int
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
    /// Where the private scratch directory is made (default: the system temporary directory,
    /// which honours `TMPDIR`).
    public var temporaryDirectory: URL?
    /// SQLite work on the copy is interrupted after this many seconds.
    public var queryTimeout: TimeInterval = 3600

    public init() {}
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
                                             temporaryDirectory: dryRun.temporaryDirectory)
        } catch {
            report.diagnostics.append(error.diagnostic)
            return report.resummarised()
        }
        defer { copy.remove() }
        do {
            metadata = try StoreReader().read(copy: copy)
            compiled = try dryRun.momd.map { path throws(StoreError) in try CompiledModelInfo.read(momdAt: path) }
        } catch {
            report.diagnostics.append(error.diagnostic)
            return report.resummarised()
        }
        let identification = StoreIdentifier.identify(metadata: metadata, versions: bundle.versions, compiled: compiled)
        report.diagnostics += metadata.diagnostics + identification.diagnostics

        // Rows per entity, from the tables' per-entity counts.
        var rowsByEntity: [Int: (table: String, rows: Int, rowBytes: Int)] = [:]
        for table in metadata.tables {
            for (entity, rows) in table.rowCountsByEntity { rowsByEntity[entity] = (table.name, rows, table.averageRowBytes ?? 0) }
        }
        let entities = metadata.entities.filter { !$0.isSystemEntity }.map { entity in
            StoreEntityRows(name: entity.name, table: rowsByEntity[entity.number]?.table, rows: rowsByEntity[entity.number]?.rows ?? entity.rowCount ?? 0)
        }
        let byName = Dictionary(metadata.entities.map { ($0.name, rowsByEntity[$0.number]) }, uniquingKeysWith: { first, _ in first })

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
                let touched = changed.compactMap { name in byName[name].flatMap { $0 }.map { StoreReport.TableRows(name: $0.table, rows: $0.rows) } }
                let tables = Array(Set(touched)).sorted { $0.name < $1.name }
                switch step.migration {
                case .heavyweight?:
                    // Every instance of the mapped entities is loaded and re-inserted: all entities with rows.
                    let bytes = byName.values.compactMap { $0 }.reduce(0) { $0 + $1.rows * max($1.rowBytes, 1) }
                    work.append(.init(from: step.from, to: step.to, migration: step.migration, work: "load and re-insert",
                                      tables: tables, estimatedMemoryBytes: bytes))
                    let limit = dryRun.memoryLimitBytes ?? DryRunOptions.defaultMemoryLimitBytes
                    if bytes > limit {
                        report.diagnostics.append(Diagnostic(.cp303,
                            "'\(step.from)' → '\(step.to)' is heavyweight and would load about \(Self.megabytes(bytes)) MB of '\(shown)' at once, over the "
                                + "\(limit >> 20) MB limit; split the mapping model into passes by entity",
                            at: SourceLocation(file: shown), versions: [step.from, step.to]))
                    }
                case .none?:
                    work.append(.init(from: step.from, to: step.to, migration: step.migration, work: "none", tables: [], estimatedMemoryBytes: nil))
                default:
                    work.append(.init(from: step.from, to: step.to, migration: step.migration, work: "in-place SQL", tables: tables, estimatedMemoryBytes: nil))
                }
            }
            if dryRun.simulate {
                simulate(&work, copy: copy, bundle: bundle, options: dryRun, shown: shown, diagnostics: &report.diagnostics)
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
        diagnostics: inout [Diagnostic]
    ) {
        var steps: [MigrationSimulator.Step] = []
        var positions: [Int] = []
        for (position, step) in work.enumerated() where step.migration != MigrationKind.none {
            guard let source = bundle.version(named: step.from)?.model, let destination = bundle.version(named: step.to)?.model else { break }
            steps.append(.init(from: step.from, to: step.to, source: source, destination: destination))
            positions.append(position)
        }
        var simulator = MigrationSimulator(displayPath: shown)
        simulator.showValues = options.showValues
        simulator.sqlLog = options.sqlLog
        simulator.progress = options.progress
        let outcome = simulator.run(copyAt: copy.storeURL.path, steps: steps, queryTimeout: options.queryTimeout)
        for (position, simulation) in zip(positions, outcome.simulations) {
            work[position].simulation = simulation
        }
        diagnostics += outcome.diagnostics
    }
}

extension ChainPlanner {
    /// Bytes as MB for messages: one decimal under 10 MB (so 1.1 MB is not shown as 1 MB next to a 1 MB limit).
    static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / Double(1 << 20)
        return value < 10 ? String(format: "%.1f", (value * 10).rounded(.down) / 10) : String(bytes >> 20)
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
