import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders
import Foundation
import GRDB

/// `finishDeferredLightweightMigration()` on the private scratch copy (reference §7.3): one task
/// per root table of the current model whose table holds `_DEFERRED_` columns, each in one
/// transaction — rename the table `_DEFERRED_TEMP__<table>`, create the table from the model,
/// copy the rows back, drop the copy, recreate the table's indexes. Triggers are not simulated
/// (the simulation never creates them) and the final `wal_checkpoint` does not apply to a copy.
///
/// Example (the tests run it): after V1 → V2 drops `Note.body` with the option, `ZNOTE` holds
/// `_DEFERRED_<hex>__ZBODY`; the finish copies its 5 rows into a new `ZNOTE` without it.
struct DeferredFinisher {
    var sqlLog: (@Sendable (String) -> Void)?

    /// The finish's tasks, left-over columns and failure (the steps are the dry run's to add).
    func run(copyAt path: String, model: ObjectModel, queryTimeout: TimeInterval) -> DeferredFinishSimulation {
        var outcome = DeferredFinishSimulation()
        let layout = StoreLayout(model: model)
        let queue: DatabaseQueue
        do {
            queue = try MigrationSimulator.openCopy(path, label: "chainplan.finish")
        } catch {
            outcome.failure = StoreReader.describe(error)
            return outcome
        }
        let watchdog = DispatchWorkItem { [weak queue] in queue?.interrupt() }
        DispatchQueue.global().asyncAfter(deadline: .now() + min(max(queryTimeout, 0.001), 86_400), execute: watchdog)
        defer { watchdog.cancel() }
        let q = StoreReader.quote
        do {
            let live = try queue.inDatabase { db in try LiveSchema.read(db, maxObjects: 100_000) }
            var finished: Set<String> = []
            for table in layout.tables {
                guard let found = live.table(table.name) else { continue }
                let deferred = found.columns.filter { $0.uppercased().hasPrefix(PendingDeferredWork.prefix) }
                guard !deferred.isEmpty else { continue }
                finished.insert(found.name.uppercased())
                let clock = ContinuousClock()
                let start = clock.now
                let temporary = "_DEFERRED_TEMP__" + found.name
                let pairs = table.columns.compactMap { column in LiveSchema.column(column.name, in: found.columns).map { (column.name, $0) } }
                var rows = 0
                sqlLog?("-- finishDeferredLightweightMigration: \(MigrationSimulator.comment(found.name))")
                sqlLog?("BEGIN;")
                try queue.inDatabase { db in
                    try db.inTransaction {
                        func execute(_ sql: String) throws -> Int {
                            sqlLog?(sql + ";")
                            try db.execute(sql: sql)
                            return db.changesCount
                        }
                        _ = try execute("ALTER TABLE \(q(found.name)) RENAME TO \(q(temporary))")
                        _ = try execute(MigrationSimulator.createTableSQL(found.name, columns: table.columns))
                        rows = try execute("INSERT INTO \(q(found.name)) (\(pairs.map { q($0.0) }.joined(separator: ", "))) "
                            + "SELECT \(pairs.map { q($0.1) }.joined(separator: ", ")) FROM \(q(temporary))")
                        _ = try execute("DROP TABLE \(q(temporary))")
                        for index in layout.indexes where index.table.uppercased() == table.name.uppercased() {
                            _ = try execute(MigrationSimulator.createIndexSQL(index))
                        }
                        return .commit
                    }
                }
                sqlLog?("COMMIT;")
                let elapsed = clock.now - start
                outcome.tasks.append(.init(table: found.name, columns: deferred, rows: rows, elapsed: elapsed))
            }
            for table in live.tables.values.sorted(by: { $0.name < $1.name }) where !finished.contains(table.name.uppercased()) {
                for column in table.columns where column.uppercased().hasPrefix(PendingDeferredWork.prefix) {
                    outcome.leftOver.append("\(table.name).\(column)")
                }
            }
        } catch {
            sqlLog?("ROLLBACK;")
            outcome.failure = StoreReader.isInterrupt(error) ? "took longer than \(Int(queryTimeout)) s" : StoreReader.describe(error)
        }
        return outcome
    }
}

extension MigrationSimulator {
    /// A connection to a scratch copy: no trusted schema, no mmap, no fsync, a 4 MB page cache
    /// (more does not help a 1M-row store and shows in peak memory).
    static func openCopy(_ path: String, label: String) throws -> DatabaseQueue {
        let configuration = GRDB.Configuration.chainplan(
            label: label, pragmas: ["trusted_schema = OFF", "mmap_size = 0", "synchronous = OFF", "cache_size = -4096"])
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// `CREATE TABLE` for an entity table of the layout, under `name`.
    static func createTableSQL(_ name: String, columns: [StoreLayout.Column]) -> String {
        let definitions = columns.map { StoreReader.quote($0.name) + " " + $0.sqlType + ($0.role == .primaryKey ? " PRIMARY KEY" : "") }
        return "CREATE TABLE \(StoreReader.quote(name)) ( \(definitions.joined(separator: ", ")) )"
    }

    /// `CREATE [UNIQUE] INDEX` for an index of the layout.
    static func createIndexSQL(_ index: StoreLayout.Index) -> String {
        let columns = index.columns.map { StoreReader.quote($0) + (index.isUnique ? " COLLATE BINARY ASC" : "") }
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(StoreReader.quote(index.name)) ON \(StoreReader.quote(index.table)) (\(columns.joined(separator: ", ")))"
    }
}
