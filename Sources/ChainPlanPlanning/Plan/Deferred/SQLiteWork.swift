import ChainPlanInference
import ChainPlanReaders
/// What a step does to each table of a SQLite store, with and without
/// `NSPersistentStoreDeferredLightweightMigrationOptionKey` (reference §5, §7).
///
/// Only the in-place migrator, which runs for inferred mappings, reads the option; a step that
/// uses a mapping model migrates every object into a new store and ignores it (§7.1). With the
/// option, exactly three causes of a rebuild become column renames (`DeferredCause`); a removed
/// to-one still rebuilds its table (the code defers attributes only, though WWDC 2023 says
/// relationship removals defer). Dropping a removed root entity's table, join tables, index,
/// trigger and default-value work are never deferred.
///
/// Examples (the tests run them): Note loses attribute `body` → `ZNOTE` `deferred` (`ZBODY`,
/// `attribute-removed`) with the option, `rebuilt` and `avoidableByDeferral` without; Note loses
/// to-one `folder` → `ZNOTE` `rebuilt` either way; entity `Tag` removed → `ZTAG` `dropped`.
public struct SQLiteWork: Sendable, Hashable, Codable {
    public enum Path: String, Sendable, Hashable, Codable {
        /// Inferred mapping: SQL on the store's own tables.
        case inPlace = "in-place"
        /// A bundled mapping model: every object loaded and saved into a new store.
        case mappingModel = "mapping-model"
    }

    public enum Work: String, Sendable, Hashable, Codable {
        case unchanged, altered, rebuilt, deferred, dropped, created
    }

    public struct Column: Sendable, Hashable, Codable {
        public var column: String
        public var cause: DeferredCause
    }

    public struct Table: Sendable, Hashable, Codable {
        public var table: String
        /// The root entity of the table; nil for a many-to-many join table.
        public var entity: String?
        public var work: Work
        /// `deferred`: the renamed columns. `rebuilt`: the columns deferral would rename (all
        /// of them when `avoidableByDeferral`, else those the rebuild drops anyway).
        public var columns: [Column]
        /// Why the table is rebuilt now (whatever the option says), altered, created or dropped.
        public var reasons: [String]
        /// Deferral off: true when the option would turn this rebuild into column renames.
        public var avoidableByDeferral: Bool?
    }

    /// Whether the option is set for the step.
    public var deferred: Bool
    public var path: Path
    /// True when the option is set and the step uses a mapping model, which ignores it.
    public var optionIgnored: Bool
    /// Entity tables in the destination's order, then tables dropped, then join tables.
    public var tables: [Table]
    /// Tables `finishDeferredLightweightMigration()` will copy: one task per deferred root table.
    public var finishTasks: Int

    /// Tables rebuilt now that the option would leave in place.
    public var avoidableRebuilds: [Table] { tables.filter { $0.avoidableByDeferral == true } }

    private enum CodingKeys: String, CodingKey { case deferred, path, optionIgnored, tables, tableCount, finishTasks }

    /// JSON lists only the tables whose work is not `unchanged`, and `tableCount`, the number of
    /// tables in all: a long history's unchanged tables would otherwise fill most of the document.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([.deferred: deferred, .path: path, .optionIgnored: optionIgnored,
                              .tables: tables.filter { $0.work != .unchanged }, .tableCount: tables.count, .finishTasks: finishTasks])
    }

}

// In an extension, so that the synthesized memberwise init stays.
extension SQLiteWork {
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deferred = try container.decode(Bool.self, forKey: .deferred)
        path = try container.decode(Path.self, forKey: .path)
        optionIgnored = try container.decode(Bool.self, forKey: .optionIgnored)
        tables = try container.decode([Table].self, forKey: .tables)
        finishTasks = try container.decode(Int.self, forKey: .finishTasks)
    }
}

extension SQLiteWork {
    /// The work of an inferred step (`path` `.inPlace`) or the note that a mapping-model step
    /// copies everything (`.mappingModel`).
    public static func analyze(source: ObjectModel, destination: ObjectModel, path: Path, deferring: Bool) -> SQLiteWork {
        analyze(source: source, destination: destination, layouts: nil, copied: [], path: path, deferring: deferring)
    }

    /// `layouts`: the two models' store layouts when already known (a chain derives each once).
    /// `resolved`: the two models with their inheritance resolved, when already known.
    /// `copied`: entities the inferred mapping copies (equal hashes, same name); a table of such
    /// entities whose columns and entity numbers stay is unchanged without planning it.
    static func analyze(source: ObjectModel, destination: ObjectModel, layouts: (StoreLayout, StoreLayout)?, copied: Set<String>,
                        path: Path, deferring: Bool, resolved: (ResolvedModel, ResolvedModel)? = nil) -> SQLiteWork {
        guard path == .inPlace else {
            return SQLiteWork(deferred: deferring, path: path, optionIgnored: deferring, tables: [], finishTasks: 0)
        }
        let sourceLayout = layouts?.0 ?? StoreLayout(model: source)
        let layout = layouts?.1 ?? StoreLayout(model: destination)
        var oldNumbers: [String: Int] = [:]
        for slot in sourceLayout.entities { oldNumbers[slot.name] = slot.number }
        // Built on first use: a step whose tables all take the shortcuts below never needs them.
        var builtMapping: StepMapping?
        func mapping() -> StepMapping {
            if let builtMapping { return builtMapping }
            let made = resolved.map { StepMapping(source: $0.0, destination: $0.1) } ?? StepMapping(source: source, destination: destination)
            builtMapping = made
            return made
        }
        var built: InPlaceTablePlanner?
        func planner() -> InPlaceTablePlanner {
            if let built { return built }
            let made = InPlaceTablePlanner(mapping: mapping(), sourceLayout: sourceLayout,
                                           layout: layout, live: LiveSchema.predicted(sourceLayout))
            built = made
            return made
        }
        var tables: [Table] = []
        var feeding: Set<String> = []  // upper-cased source tables that feed a destination table
        var oldTables: [String: StoreLayout.Table] = [:]
        for table in sourceLayout.tables { oldTables[table.name] = table }
        var newNumbers: [String: Int] = [:]
        for slot in layout.entities { newNumbers[slot.name] = slot.number }
        for table in layout.tables {
            // Copied entities in a table whose columns stay: unchanged, or only renumbered when
            // an entity added or removed elsewhere shifts the alphabetical entity numbers (the
            // plan would say the same; most tables of a long history are this case).
            if !copied.isEmpty, let old = oldTables[table.name], old.entities == table.entities, old.columns == table.columns,
               table.entities.allSatisfy({ copied.contains($0) }) {
                feeding.insert(table.name.uppercased())
                let renumbered = table.entities.contains { oldNumbers[$0] != newNumbers[$0] }
                tables.append(Table(table: table.name, entity: table.rootEntity, work: renumbered ? .altered : .unchanged, columns: [],
                                    reasons: renumbered ? ["rows renumbered (Z_ENT)"] : [], avoidableByDeferral: nil))
                continue
            }
            let made = planned(planner().plan(table), table: table, deferring: deferring)
            for name in made.feeding { feeding.insert(name) }
            tables.append(made.row)
        }
        let destinationTables = Set(layout.tables.map { $0.name.uppercased() })
        for table in sourceLayout.tables where !feeding.contains(table.name.uppercased()) && !destinationTables.contains(table.name.uppercased()) {
            tables.append(Table(table: table.name, entity: table.rootEntity, work: .dropped, columns: [],
                                reasons: ["entity '\(table.rootEntity)' is removed: its table is dropped now, never deferred"], avoidableByDeferral: nil))
        }
        var keptJoins: Set<String> = []
        for join in layout.joinTables {
            var row = Table(table: join.name, entity: nil, work: .created, columns: [], reasons: [], avoidableByDeferral: nil)
            // The same join table between two copied entities: unchanged (the planner says the same).
            if !copied.isEmpty, copied.contains(join.first.entity), copied.contains(join.second.entity),
               sourceLayout.joinTables.contains(join) {
                keptJoins.insert(join.name.uppercased())
                row.work = .unchanged
                tables.append(row)
                continue
            }
            let source = planner().sourceJoin(for: join)
            if let (table, columns) = source {
                keptJoins.insert(table.name.uppercased())
                let same = table.name.uppercased() == join.name.uppercased()
                    && columns.map({ $0?.uppercased() }) == [join.first.column, join.second.column, join.first.orderColumn, join.second.orderColumn].map({ $0?.uppercased() })
                row.work = same ? .unchanged : .rebuilt
                if !same {
                    row.reasons = [(table.name.uppercased() == join.name.uppercased() ? "its columns change (entity numbers move)" : "copied from \(table.name)")
                        + ": copied now (join tables are never deferred)"]
                }
            } else {
                row.reasons = ["many-to-many '\(join.first.entity)' ↔ '\(join.second.entity)' is new"]
            }
            tables.append(row)
        }
        for join in sourceLayout.joinTables where !keptJoins.contains(join.name.uppercased()) {
            tables.append(Table(table: join.name, entity: nil, work: .dropped, columns: [],
                                reasons: ["many-to-many '\(join.first.entity)' ↔ '\(join.second.entity)' goes: dropped now, never deferred"], avoidableByDeferral: nil))
        }
        let finish = tables.filter { $0.work == .deferred }.count
        return SQLiteWork(deferred: deferring, path: .inPlace, optionIgnored: false, tables: tables, finishTasks: finish)
    }

    /// A destination table's row and the source tables feeding it, from its plan.
    private static func planned(_ plan: InPlaceTablePlan, table: StoreLayout.Table, deferring: Bool) -> (row: Table, feeding: [String]) {
        let columns = plan.deferrable.map { Column(column: $0.column, cause: $0.cause) }
        var row = Table(table: table.name, entity: table.rootEntity, work: .unchanged, columns: [], reasons: [], avoidableByDeferral: nil)
        if plan.isCreated {
            row.work = .created
            row.reasons = ["entity '\(table.rootEntity)' is new"]
        } else if plan.staysInPlace(deferring: deferring) {
            row.columns = columns
            if !columns.isEmpty {
                row.work = .deferred
            } else if !plan.add.isEmpty || !plan.fill.isEmpty {
                row.work = .altered
                if !plan.add.isEmpty { row.reasons.append("columns added: " + plan.add.map(\.name).joined(separator: ", ")) }
                if plan.fill.contains(where: { $0.column == "Z_ENT" }) { row.reasons.append("rows renumbered (Z_ENT)") }
                let filled = plan.fill.map(\.column).filter { $0 != "Z_ENT" }
                if !filled.isEmpty { row.reasons.append("values filled: " + filled.joined(separator: ", ")) }
            }
        } else {
            row.work = .rebuilt
            row.columns = columns
            row.reasons = plan.blockers
            if plan.blockers.isEmpty {
                row.avoidableByDeferral = true
                row.reasons = ["columns removed: " + columns.map(\.column).joined(separator: ", ")]
            } else if !deferring {
                row.avoidableByDeferral = false
            }
        }
        return (row, plan.sources.map { $0.source.live.name.uppercased() })
    }
}

extension SQLiteWork {
    /// The SQLite work of a classified step: in place for an inferred (lightweight) step, the
    /// mapping-model path when a mapping model is used; nil when no migration runs or none can.
    public static func of(_ step: StepClassification, source: ObjectModel, destination: ObjectModel, deferring: Bool) -> SQLiteWork? {
        of(step, source: source, destination: destination, layouts: nil, deferring: deferring)
    }

    static func of(_ step: StepClassification, source: ObjectModel, destination: ObjectModel, layouts: (StoreLayout, StoreLayout)?,
                   copied: Set<String> = [], deferring: Bool, resolved: (ResolvedModel, ResolvedModel)? = nil) -> SQLiteWork? {
        guard let path = path(of: step) else { return nil }
        return analyze(source: source, destination: destination, layouts: layouts, copied: copied, path: path, deferring: deferring,
                       resolved: resolved)
    }

    /// The path a classified step's migration takes through a SQLite store: in place for an
    /// inferred step, a copy for a step with a mapping model; nil when none runs or none can.
    static func path(of step: StepClassification) -> Path? {
        switch step.migration {
        case .lightweight: .inPlace
        case .heavyweight where step.mappingModel != nil: .mappingModel
        case .none, .unknown, .heavyweight: nil
        }
    }
}
