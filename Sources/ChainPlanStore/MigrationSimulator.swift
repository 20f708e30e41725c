import ChainPlanCore
import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders
import Foundation
import GRDB

/// Applies, as SQL on the private scratch copy, the schema changes of each step of a path: the
/// in-place migration Core Data performs for an inferred (lightweight) mapping — columns added,
/// tables rebuilt and copied, rows renumbered to the new `Z_ENT`s, `Z_PRIMARYKEY` rewritten,
/// indexes rebuilt — and checks the data against each destination model (CP304).
///
/// Heavyweight steps are simulated the same way (their mapping models' custom policies cannot
/// run here), so later steps start from the right schema. Data moves by the inferred pairing:
/// renaming identifier, else name. Values of new attributes and NULLs of attributes that become
/// non-optional are filled with the destination's default value. Row values are never read
/// into the report unless `showValues` is set.
struct MigrationSimulator {
    struct Step {
        var from: String
        var to: String
        var source: ObjectModel
        var destination: ObjectModel
        /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` on an inferred step: removed
        /// attribute, entity and order columns are renamed `_DEFERRED_…` instead of rebuilding
        /// their table (reference §7.2). Mapping-model steps ignore the option.
        var deferring = false
    }

    /// Progress of the whole simulation: (step number from 1, steps, fraction of the step done).
    typealias Progress = @Sendable (Int, Int, Double) -> Void

    var displayPath: String
    var showValues = false
    var maxObjects = 100_000
    /// Receives the SQL run, as a replayable script: a `-- 'A' → 'B'` comment, BEGIN, the
    /// statements, COMMIT for each step.
    var sqlLog: (@Sendable (String) -> Void)?
    var progress: Progress?

    struct Outcome {
        var simulations: [StepSimulation]
        var diagnostics: [Diagnostic]
    }

    /// Runs every step in one connection to the copy at `path`; stops at the first step SQLite
    /// refuses (a CP300 warning names it).
    func run(copyAt path: String, steps: [Step], queryTimeout: TimeInterval) -> Outcome {
        var outcome = Outcome(simulations: [], diagnostics: [])
        guard !steps.isEmpty else { return outcome }
        let queue: DatabaseQueue
        do {
            queue = try Self.openCopy(path, label: "chainplan.simulation")
        } catch {
            outcome.diagnostics.append(failure("cannot be opened for the simulation: \(StoreReader.describe(error))", steps[0]))
            return outcome
        }
        let watchdog = DispatchWorkItem { [weak queue] in queue?.interrupt() }
        DispatchQueue.global().asyncAfter(deadline: .now() + min(max(queryTimeout, 0.001), 86_400), execute: watchdog)
        defer { watchdog.cancel() }

        for (index, step) in steps.enumerated() {
            do {
                let clock = ContinuousClock()
                let start = clock.now
                var simulation = StepSimulation()
                var violations: [Diagnostic] = []
                sqlLog?("-- '\(Self.comment(step.from))' → '\(Self.comment(step.to))'")
                sqlLog?("BEGIN;")
                try queue.inDatabase { db in
                    try db.inTransaction {
                        var run = try StepRun(simulator: self, db: db, step: step, number: index + 1, of: steps.count)
                        try run.apply()
                        simulation.operations = run.operations
                        simulation.statements = run.statements
                        violations = run.violations
                        return .commit
                    }
                }
                sqlLog?("COMMIT;")
                let elapsed = clock.now - start
                simulation.seconds = elapsed.seconds
                outcome.simulations.append(simulation)
                outcome.diagnostics += violations
            } catch {
                sqlLog?("ROLLBACK;")
                let reason = StoreReader.isInterrupt(error) ? "took longer than \(Int(queryTimeout)) s" : StoreReader.describe(error)
                outcome.diagnostics.append(failure("could not be migrated on the scratch copy: \(reason); later steps were not simulated", step))
                break
            }
        }
        return outcome
    }

    private func failure(_ reason: String, _ step: Step) -> Diagnostic {
        Diagnostic(.unreadableStore, severity: .warning, "the simulation of '\(step.from)' → '\(step.to)' on store '\(displayPath)' \(reason)",
                   at: SourceLocation(file: displayPath), versions: [step.from, step.to])
    }

    /// The 32 hex digits standing for Core Data's per-table UUID in `_DEFERRED_<uuid>__<column>`:
    /// derived from the step and table so the SQL log stays deterministic.
    static func deferralToken(step: Int, table: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in "\(step)/\(table.uppercased())".utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
        }
        let hex = String(first, radix: 16, uppercase: true) + String(second, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 32 - hex.count)) + hex
    }

    /// A version name safe inside a one-line SQL comment.
    static func comment(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : Character($0) })
    }
}

/// One step on one connection: plan, copy, check, index.
private struct StepRun {
    let simulator: MigrationSimulator
    let db: Database
    let step: MigrationSimulator.Step
    let number: Int
    let count: Int
    /// Plans each table; it holds the step's mapping, both store layouts and the live schema.
    let planner: InPlaceTablePlanner
    var mapping: StepMapping { planner.mapping }
    var sourceLayout: StoreLayout { planner.sourceLayout }
    var layout: StoreLayout { planner.layout }
    var live: LiveSchema { planner.live }
    var operations: [StepSimulation.Operation] = []
    var statements = 0
    var violations: [Diagnostic] = []

    init(simulator: MigrationSimulator, db: Database, step: MigrationSimulator.Step, number: Int, of count: Int) throws {
        self.simulator = simulator
        self.db = db
        self.step = step
        self.number = number
        self.count = count
        planner = InPlaceTablePlanner(mapping: StepMapping(source: step.source, destination: step.destination),
                                      sourceLayout: StoreLayout(model: step.source), layout: StoreLayout(model: step.destination),
                                      live: try LiveSchema.read(db, maxObjects: simulator.maxObjects, aliases: EntityAliases.of(step.source)))
    }

    private mutating func execute(_ sql: String) throws -> Int {
        simulator.sqlLog?(sql + ";")
        statements += 1
        try db.execute(sql: sql)
        return db.changesCount
    }

    private func q(_ name: String) -> String { StoreReader.quote(name) }

    private func report(_ fraction: Double) {
        simulator.progress?(number, count, min(max(fraction, 0), 1))
    }

    mutating func apply() throws {
        report(0)
        let temporaryPrefix = "_CHAINPLAN_"
        var kept: Set<String> = []  // upper-cased live tables kept in place
        var renames: [(from: String, to: String)] = []
        var alterations: [(table: String, add: [StoreLayout.Column], fill: [(column: String, value: String, onlyNulls: Bool)])] = []
        let totalTables = max(layout.tables.count + layout.joinTables.count, 1)
        var done = 0
        var copiedFrom: [String: Int] = [:]  // upper-cased live source table → rows copied out of it
        var deferrals: [(table: String, columns: [String])] = []  // kept tables whose removed columns are renamed

        // 1. Entity tables: kept, altered, rebuilt into a temporary table, or created.
        for table in layout.tables {
            let plan = planner.plan(table)
            let sources = plan.sources
            let entityCases = plan.entityCases
            if plan.staysInPlace(deferring: step.deferring) {
                let source = sources[0].source
                kept.insert(source.live.name.uppercased())
                if !plan.add.isEmpty || !plan.fill.isEmpty { alterations.append((source.live.name, plan.add, plan.fill)) }
                if !plan.deferrable.isEmpty { deferrals.append((source.live.name, plan.deferrable.map(\.column))) }
                done += 1
                continue
            }

            let temporary = temporaryPrefix + table.name
            _ = try execute(MigrationSimulator.createTableSQL(temporary, columns: table.columns))
            var copied = 0
            var offset = 0
            for (position, entry) in sources.enumerated() {
                let values = table.columns.map { planner.expression(for: $0, from: entry.source, keyOffset: offset, entityCase: entityCases[position]) }
                let olds = entry.pairs.map { String($0.old) }.joined(separator: ", ")
                let inserted = try execute("""
                    INSERT INTO \(q(temporary)) (\(table.columns.map { q($0.name) }.joined(separator: ", "))) \
                    SELECT \(values.joined(separator: ", ")) FROM \(q(entry.source.live.name)) WHERE Z_ENT IN (\(olds))
                    """)
                copied += inserted
                copiedFrom[entry.source.live.name.uppercased(), default: 0] += inserted
                if sources.count > 1 {
                    offset = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(Z_PK), 0) FROM \(q(temporary))") ?? 0
                }
            }
            operations.append(.init(kind: sources.isEmpty ? "table created" : "table rebuilt and copied", table: table.name, rows: copied, detail: []))
            renames.append((temporary, table.name))
            done += 1
            report(Double(done) / Double(totalTables) * 0.8)
        }

        // 2. Join tables.
        for join in layout.joinTables {
            let source = planner.sourceJoin(for: join)
            if let (table, columns) = source, table.name.uppercased() == join.name.uppercased(),
               columns.map({ $0?.uppercased() }) == [join.first.column, join.second.column, join.first.orderColumn, join.second.orderColumn].map({ $0?.uppercased() }) {
                kept.insert(table.name.uppercased())
                done += 1
                continue
            }
            let temporary = temporaryPrefix + join.name
            var definitions = ["\(q(join.first.column)) INTEGER", "\(q(join.second.column)) INTEGER"]
            let orders = [join.first.orderColumn, join.second.orderColumn].compactMap { $0 }
            definitions += orders.map { "\(q($0)) INTEGER" }
            definitions.append("PRIMARY KEY (\(q(join.first.column)), \(q(join.second.column)))")
            _ = try execute("CREATE TABLE \(q(temporary)) ( \(definitions.joined(separator: ", ")) )")
            var copied = 0
            if let (table, columns) = source, let first = columns[0], let second = columns[1] {
                var targets = [join.first.column, join.second.column]
                var values = [q(first), q(second)]
                for (order, old) in zip([join.first.orderColumn, join.second.orderColumn], [columns[2], columns[3]]) {
                    guard let order else { continue }
                    targets.append(order)
                    values.append(old.map(q) ?? "NULL")
                }
                copied = try execute("""
                    INSERT OR IGNORE INTO \(q(temporary)) (\(targets.map(q).joined(separator: ", "))) \
                    SELECT \(values.joined(separator: ", ")) FROM \(q(table.name)) WHERE \(q(first)) IS NOT NULL AND \(q(second)) IS NOT NULL
                    """)
            }
            operations.append(.init(kind: source == nil ? "table created" : "table rebuilt and copied", table: join.name, rows: copied, detail: []))
            renames.append((temporary, join.name))
            done += 1
            report(Double(done) / Double(totalTables) * 0.8)
        }

        // Every row of every source table is accounted for: moved (copied, or kept in place) or
        // deleted with an entity the destination removes. Anything else would vanish silently.
        try accountForRows(kept: kept, copiedFrom: copiedFrom)

        // 3. Source tables not kept go; the rebuilt ones take their names.
        var dropped: Set<String> = []
        for table in sourceLayout.tables.map(\.name) + sourceLayout.joinTables.map(\.name) {
            guard let found = live.table(table), !kept.contains(found.name.uppercased()), dropped.insert(found.name.uppercased()).inserted else { continue }
            _ = try execute("DROP TABLE \(q(found.name))")
            if !renames.contains(where: { $0.to.uppercased() == found.name.uppercased() }) {
                operations.append(.init(kind: "table dropped", table: found.name, rows: 0, detail: []))
            }
        }
        for rename in renames {
            _ = try execute("ALTER TABLE \(q(rename.from)) RENAME TO \(q(rename.to))")
        }
        for deferral in deferrals {
            let prefix = InPlaceTablePlan.deferredPrefix + MigrationSimulator.deferralToken(step: number, table: deferral.table) + "__"
            for column in deferral.columns {
                _ = try execute("ALTER TABLE \(q(deferral.table)) RENAME COLUMN \(q(column)) TO \(q(prefix + column))")
            }
            operations.append(.init(kind: "columns deferred", table: deferral.table, rows: 0, detail: deferral.columns))
        }
        for alteration in alterations {
            for column in alteration.add {
                _ = try execute("ALTER TABLE \(q(alteration.table)) ADD COLUMN \(q(column.name)) \(column.sqlType)")
            }
            if !alteration.add.isEmpty {
                operations.append(.init(kind: "columns added", table: alteration.table, rows: 0, detail: alteration.add.map(\.name)))
            }
            var filled = 0
            for fill in alteration.fill where fill.column == "Z_ENT" {
                let rows = try execute("UPDATE \(q(alteration.table)) SET Z_ENT = \(fill.value)")
                operations.append(.init(kind: "rows renumbered", table: alteration.table, rows: rows, detail: ["Z_ENT"]))
            }
            let fills = alteration.fill.filter { $0.column != "Z_ENT" }
            for fill in fills {
                filled = max(filled, try execute("UPDATE \(q(alteration.table)) SET \(q(fill.column)) = \(fill.value)"
                    + (fill.onlyNulls ? " WHERE \(q(fill.column)) IS NULL" : "")))
            }
            if !fills.isEmpty {
                operations.append(.init(kind: "values filled", table: alteration.table, rows: filled, detail: fills.map(\.column)))
            }
        }

        // 4. Z_PRIMARYKEY: the destination's entity numbers, keeping each entity's last key.
        _ = try execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        for slot in layout.entities {
            let max = mapping.entitySource[slot.name].flatMap { live.maxKeys[$0] } ?? 0
            let name = "'" + slot.name.replacingOccurrences(of: "'", with: "''") + "'"
            _ = try execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(slot.number), \(name), \(slot.superNumber), \(max))")
        }
        report(0.85)

        // 5. The data against the destination model, before unique indexes that would refuse it.
        let checks = StoreDataChecks(db: db, layout: layout, mapping: mapping, showValues: simulator.showValues)
        let found = try checks.run()
        violations += found.map { violation in
            .dataViolatesDestination(violation.message, failsAtNextSave: violation.failsAtNextSave, from: step.from, to: step.to,
                                     store: simulator.displayPath)
        }
        let refused = Set(found.compactMap(\.uniqueIndex).map { $0.uppercased() })

        // 6. Indexes: the destination's, on the destination's tables.
        let current = try LiveSchema.read(db, maxObjects: simulator.maxObjects)
        let wanted = Set(layout.indexes.map { $0.name.uppercased() })
        let ours = Set(layout.tables.map { $0.name.uppercased() } + layout.joinTables.map { $0.name.uppercased() })
        for (key, index) in current.indexes.sorted(by: { $0.key < $1.key })
        where ours.contains(index.table.uppercased()) && (!wanted.contains(key) || refused.contains(key)) {
            _ = try execute("DROP INDEX \(q(index.name))")
            operations.append(.init(kind: "index dropped", table: index.table, rows: 0, detail: [index.name]))
        }
        for index in layout.indexes where current.indexes[index.name.uppercased()] == nil && !refused.contains(index.name.uppercased()) {
            _ = try execute(MigrationSimulator.createIndexSQL(index))
            operations.append(.init(kind: "index created", table: index.table, rows: 0, detail: [index.name]))
        }
        report(1)
    }

    /// Rows in == rows out per source entity table; a CP300 warning names any table whose
    /// rows do not add up (rows of entity numbers no source entity has, for instance).
    private mutating func accountForRows(kept: Set<String>, copiedFrom: [String: Int]) throws {
        let paired = Set(mapping.entitySource.values)
        var seen: Set<String> = []
        for table in sourceLayout.tables {
            guard let found = live.table(table.name), seen.insert(found.name.uppercased()).inserted,
                  LiveSchema.column("Z_ENT", in: found.columns) != nil else { continue }
            func count(_ numbers: [Int]?) throws -> Int {
                if let numbers, numbers.isEmpty { return 0 }
                let filter = numbers.map { " WHERE Z_ENT IN (" + $0.map(String.init).joined(separator: ", ") + ")" } ?? ""
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(q(found.name))" + filter) ?? 0
            }
            let total = try count(nil)
            let removed = try count(table.entities.filter { !paired.contains($0) }.compactMap { live.entityNumbers[$0] })
            let moved = kept.contains(found.name.uppercased())
                ? try count(table.entities.filter { paired.contains($0) }.compactMap { live.entityNumbers[$0] })
                : copiedFrom[found.name.uppercased()] ?? 0
            guard total != moved + removed else { continue }
            let stray = try Row.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM \(q(found.name)) WHERE Z_ENT IS NULL OR Z_ENT NOT IN ("
                + (table.entities.compactMap { live.entityNumbers[$0] }.map(String.init) + ["-1"]).joined(separator: ", ") + ") LIMIT 5")
            let numbers = stray.isEmpty ? "" : " (Z_ENT " + stray.map { ($0[0] as Int?).map(String.init) ?? "NULL" }.joined(separator: ", ") + ")"
            let unaccounted = total - moved - removed
            violations.append(Diagnostic(.unreadableStore, severity: .warning,
                "the simulation of '\(step.from)' → '\(step.to)' on store '\(simulator.displayPath)' accounts for \(moved + removed) of the "
                    + "\(total) rows of table \(found.name): \(unaccounted) \(unaccounted == 1 ? "row" : "rows")\(numbers) \(unaccounted == 1 ? "belongs" : "belong") to no entity of '\(step.from)' "
                    + "that the store names; the simulated result is incomplete",
                at: SourceLocation(file: simulator.displayPath), versions: [step.from, step.to]))
        }
    }
}
