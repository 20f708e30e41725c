import ChainPlanPlanning
import ChainPlanReaders
import Foundation

/// Rows per entity of a store, for sizing passes (`chainplan passes --store`): read from a private
/// scratch copy (the store itself is never opened for writing; the copy is removed before this
/// returns), with each entity's table's average row payload for the dry run's memory estimate.
package enum StoreEntityRowCounts {
    package static func read(storeAt path: String, displayPath: String, lockTimeout: TimeInterval = 5) throws(StoreError) -> [String: PassRows] {
        try read(storeAt: path, displayPath: displayPath, versions: [], lockTimeout: lockTimeout).rows
    }

    /// The rows per entity and the store's model version among `versions`, identified by its
    /// version hashes as the dry run does (``StoreIdentifier``).
    package static func read(storeAt path: String, displayPath: String, versions: [ModelVersion],
                             lockTimeout: TimeInterval = 5) throws(StoreError) -> (rows: [String: PassRows], identification: StoreIdentification) {
        let copy = try StoreScratchCopy.make(storeAt: path, displayPath: displayPath, lockTimeout: lockTimeout)
        defer { copy.remove() }
        let metadata = try StoreReader().read(copy: copy)
        if let unusable = metadata.diagnostics.first(where: { $0.code.unusableInput && $0.severity == .error }) {
            throw StoreError(unusable)
        }
        var rows: [String: PassRows] = [:]
        for entity in metadata.entities where !entity.isSystemEntity && rows[entity.name] == nil {
            let table = metadata.table(of: entity)
            rows[entity.name] = PassRows(rows: table?.rowCountsByEntity[entity.number] ?? entity.rowCount ?? 0,
                                         averageRowBytes: table?.averageRowBytes ?? 0)
        }
        let identification = versions.isEmpty ? StoreIdentification() : StoreIdentifier.identify(metadata: metadata, versions: versions)
        return (rows, identification)
    }
}
