import ChainPlanCore
import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders
/// Reads the deferred lightweight migration work a store holds (reference §7.3) and checks it
/// against the model version the store is at (`mismatches`, in the CP305 rule file).
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
}
