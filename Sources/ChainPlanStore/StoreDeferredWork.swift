import ChainPlanCore
import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders
/// Reads the deferred lightweight migration work a store holds (reference §7.3) and checks it
/// against the model version the store is at.
///
/// Pending work is every table with `_DEFERRED_` columns; the store's metadata may set
/// `NSPersistentStoreDeferredLightweightMigrationOptionKey`. Against the store's model, a
/// `_DEFERRED_` column does not match (CP305, unusable input) when its table is no entity table
/// of the model (finishing copies only the current model's root tables, so it would stay), when
/// its name is not `_DEFERRED_<32 hex>__<column>`, or when the column it was is one the model
/// still reads and the table no longer has it (Core Data's fetches would fail).
///
/// Examples (the tests run them): V2 drops `Note.body`; a V2 store whose `ZNOTE` holds
/// `_DEFERRED_<hex>__ZBODY` has one finish task and no finding; a V1 store (V1 has `body`) with
/// the same column is CP305; a `_DEFERRED_` column in `ZGONE`, a table of no entity, is CP305.
package enum StoreDeferredWork {
    /// The pending work of `metadata`'s tables and the metadata key.
    package static func pending(in metadata: StoreMetadata) -> PendingDeferredWork {
        var tables: [PendingDeferredWork.Table] = []
        for table in metadata.tables {
            let columns = table.columns.filter { $0.name.uppercased().hasPrefix(PendingDeferredWork.prefix) }
                .map { PendingDeferredWork.Column(column: $0.name) }
            if !columns.isEmpty { tables.append(.init(table: table.name, rows: table.rowCount, columns: columns)) }
        }
        return PendingDeferredWork(metadataKey: metadata.deferredMigrationKey, tables: tables)
    }

    /// CP305 for each pending table that does not match `model` (version `version`).
    package static func mismatches(_ pending: PendingDeferredWork, metadata: StoreMetadata, model: ObjectModel, version: String,
                                   displayPath: String) -> [Diagnostic] {
        guard !pending.tables.isEmpty else { return [] }
        let layout = StoreLayout(model: model)
        var expected: [String: StoreLayout.Table] = [:]
        for table in layout.tables { expected[table.name.uppercased()] = table }
        var findings: [Diagnostic] = []
        func finding(_ message: String) {
            findings.append(Diagnostic(.deferredColumnsMismatch, "store '\(displayPath)' at version '\(version)': \(message)",
                                       at: SourceLocation(file: displayPath), versions: [version]))
        }
        for table in pending.tables {
            let names = table.columns.map(\.column).joined(separator: ", ")
            guard let modelTable = expected[table.table.uppercased()] else {
                finding("table \(table.table) holds deferred columns (\(names)) but is no entity table of the model; "
                    + "finishDeferredLightweightMigration() copies only the model's tables, so they would never be finished")
                continue
            }
            let live = Set((metadata.table(named: table.table)?.columns ?? []).map { $0.name.uppercased() })
            let wanted = Set(modelTable.columns.map { $0.name.uppercased() })
            for column in table.columns {
                guard let original = column.original else {
                    finding("column \(table.table).\(column.column) starts with _DEFERRED_ but is not named _DEFERRED_<32 hex digits>__<column> as Core Data names deferred columns")
                    continue
                }
                if wanted.contains(original.uppercased()), !live.contains(original.uppercased()) {
                    finding("column \(table.table).\(original) was renamed \(column.column) by a deferred migration, but the model still reads \(original): "
                        + "the store is not at this version, or its schema was changed by hand")
                }
            }
        }
        return findings
    }
}
