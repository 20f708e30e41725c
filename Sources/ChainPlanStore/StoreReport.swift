import ChainPlanCore
import ChainPlanInference
import ChainPlanPlanning
import Foundation

/// What a dry run finds in the store: the store, its detected version, and what each step of its
/// path would do to it.
public struct StoreReport: Sendable, Hashable, Codable {
    public struct Candidate: Sendable, Hashable, Codable {
        public var version: String
        public var score: Double

        /// `score` is reported to three decimals.
        package init(version: String, score: Double) {
            self.version = version
            self.score = (score * 1000).rounded() / 1000
        }
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

        /// `step` of the report's path, not yet simulated.
        package init(step: ChainReport.Step, work: String, tables: [TableRows] = [], estimatedMemoryBytes: Int? = nil) {
            from = step.from
            to = step.to
            migration = step.migration
            self.work = work
            self.tables = tables
            self.estimatedMemoryBytes = estimatedMemoryBytes
        }
    }

    /// A table a step touches: the rows of the step's changed entities in it, summed, and
    /// those entities with their rows.
    public struct TableRows: Sendable, Hashable, Codable {
        public var name: String
        public var rows: Int
        public var entities: [EntityRows]

        /// `rows` is the sum of `entities`' rows.
        package init(name: String, entities: [EntityRows]) {
            self.name = name
            self.entities = entities
            rows = entities.reduce(0) { $0 + $1.rows }
        }
    }

    public struct EntityRows: Sendable, Hashable, Codable {
        public var name: String
        public var rows: Int

        package init(name: String, rows: Int) {
            self.name = name
            self.rows = rows
        }
    }

    public var path: String
    /// Always present in JSON, null when unknown.
    @ExplicitNull public var detectedVersion: String?
    /// `hashes`, `identifiers` or `structure`; nil when undecided (JSON: null).
    @ExplicitNull public var evidence: String?
    public var candidates: [Candidate]
    public var walMode: Bool
    public var fileBytes: Int
    public var steps: [StepWork]
    /// Deferred lightweight migration work the store already holds (reference §7.3); nil when it
    /// has neither `_DEFERRED_` columns nor the metadata key.
    public var pendingDeferred: PendingDeferredWork? = nil
    /// `dry-run --deferred`: the simulated `finishDeferredLightweightMigration()` after the
    /// path, with the same steps run without the option for comparison.
    public var deferredFinish: DeferredFinishSimulation? = nil

    enum CodingKeys: String, CodingKey {
        case path, detectedVersion, evidence, candidates, walMode, fileBytes, steps, pendingDeferred, deferredFinish
    }

    package init(path: String, detectedVersion: String? = nil, evidence: String? = nil, candidates: [Candidate], walMode: Bool, fileBytes: Int, steps: [StepWork]) {
        self.path = path
        self.detectedVersion = detectedVersion
        self.evidence = evidence
        self.candidates = candidates
        self.walMode = walMode
        self.fileBytes = fileBytes
        self.steps = steps
    }
}

/// An entity of the store with its table and rows.
public struct StoreEntityRows: Sendable, Hashable, Codable {
    public var name: String
    /// The entity's table (present even when it has no rows); null when the store has none.
    @ExplicitNull public var table: String?
    public var rows: Int

    package init(name: String, table: String? = nil, rows: Int) {
        self.name = name
        self.table = table
        self.rows = rows
    }
}

/// What simulating one step did to the scratch copy.
public struct StepSimulation: Sendable, Hashable, Codable {
    /// One change to one table.
    public struct Operation: Sendable, Hashable, Codable {
        /// `table created`, `columns added`, `table rebuilt and copied`, `table dropped`,
        /// `values filled`, `rows renumbered` (new `Z_ENT`s), `index created`, `index dropped`.
        public var kind: String
        public var table: String
        /// Rows copied, filled or indexed.
        public var rows: Int
        /// Columns added or filled; the index name for index operations.
        public var detail: [String]

        package init(kind: String, table: String, rows: Int, detail: [String]) {
            self.kind = kind
            self.table = table
            self.rows = rows
            self.detail = detail
        }
    }

    public var operations: [Operation] = []
    /// SQL statements run.
    public var statements = 0
    /// Wall-clock time of the statements on the copy (not deterministic: tests ignore it).
    public var seconds: Double = 0

    /// Nothing run yet: the simulator adds what it does.
    package init() {}

    /// Rows copied into rebuilt tables, all operations.
    package var rowsCopied: Int {
        operations.filter { $0.kind == "table rebuilt and copied" }.reduce(0) { $0 + $1.rows }
    }
}

/// What `chainplan dry-run` reports: the plan of the input, and what the store holds and each
/// step of its path would do to it. Encoded as the plan's document with `store` and `entities`
/// added (`Schemas/report.schema.json`).
public struct DryRunReport: Sendable, Hashable, Encodable {
    public var plan: ChainReport
    public var store: StoreReport?
    /// The store's entities with their tables and rows.
    public var entities: [StoreEntityRows]?

    package init(plan: ChainReport, store: StoreReport? = nil, entities: [StoreEntityRows]? = nil) {
        self.plan = plan
        self.store = store
        self.entities = entities
    }

    private enum CodingKeys: String, CodingKey {
        case store, entities
    }

    public func encode(to encoder: any Encoder) throws {
        try plan.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(store, forKey: .store)
        try container.encodeIfPresent(entities, forKey: .entities)
    }
}
