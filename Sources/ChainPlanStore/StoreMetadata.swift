import ChainPlanCore
import Foundation

/// What chainplan knows about a Core Data SQLite store: its metadata, entities, tables,
/// row counts and sizes.
///
/// Values from the user's rows never appear here: only names, counts and sizes. The
/// metadata plist's own keys are kept as names (`otherMetadataKeys`) because apps store
/// private values (tokens, identifiers) next to Core Data's keys.
package struct StoreMetadata: Sendable, Hashable {
    /// The store's path as shown in diagnostics.
    package var displayPath: String
    /// Size of the store file itself, in bytes.
    package var fileBytes: Int
    /// Size of the `-wal` file, when there was one.
    package var walBytes: Int?
    /// True when the database header says WAL mode (file format version 2).
    package var isWALMode: Bool
    /// The page size and page count as SQLite sees them (after applying the WAL).
    package var pageSize: Int
    package var pageCount: Int
    /// `Z_METADATA.Z_VERSION` (always 1 in practice).
    package var metadataVersion: Int?
    /// `Z_METADATA.Z_UUID`, the store UUID (falls back to the plist's `NSStoreUUID`).
    package var storeUUID: String?
    /// False when `Z_PLIST` was missing or could not be decoded (a CP300 says why).
    package var isMetadataPlistReadable: Bool
    /// `NSStoreType` (`SQLite`).
    package var storeType: String?
    /// `NSStoreModelVersionHashes`: entity name → version hash (32 bytes in Apple's stores).
    package var modelVersionHashes: [String: Data]
    /// `NSStoreModelVersionIdentifiers`: often `[""]`; a merged model gives several, e.g. `["", "3"]`.
    package var modelVersionIdentifiers: [String]
    /// `NSStoreModelVersionHashesVersion` (3 in every store seen).
    package var modelVersionHashesVersion: Int?
    /// `NSStoreModelVersionChecksumKey` (base64 text), compared with a compiled model's checksums.
    package var modelVersionChecksum: String?
    /// `NSStoreModelVersionHashesDigest` (base64 SHA-512 of the hashes; absent before Core Data 977).
    package var modelVersionHashesDigest: String? = nil
    /// `NSPersistenceFrameworkVersion`: the Core Data build that last saved the store.
    package var frameworkVersion: Int?
    /// Every other key of the metadata plist, by name only (values are the app's business).
    package var otherMetadataKeys: [String]
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` is true in the metadata: a
    /// migration deferred work and it was not all finished (or the key is stale, §7.3).
    package var deferredMigrationKey = false
    /// `Z_PRIMARYKEY` rows, ordered by `Z_ENT`.
    package var entities: [StoreEntity]
    /// Every table of the database except SQLite's own, ordered by name.
    package var tables: [StoreTable]
    /// Non-fatal findings (e.g. an unreadable metadata plist), sorted.
    package var diagnostics: [Diagnostic]

    package init(
        displayPath: String, fileBytes: Int = 0, walBytes: Int? = nil, isWALMode: Bool = false,
        pageSize: Int = 0, pageCount: Int = 0, metadataVersion: Int? = nil, storeUUID: String? = nil,
        isMetadataPlistReadable: Bool = true, storeType: String? = nil,
        modelVersionHashes: [String: Data] = [:], modelVersionIdentifiers: [String] = [],
        modelVersionHashesVersion: Int? = nil, modelVersionChecksum: String? = nil,
        frameworkVersion: Int? = nil, otherMetadataKeys: [String] = [],
        entities: [StoreEntity] = [], tables: [StoreTable] = [], diagnostics: [Diagnostic] = []
    ) {
        self.displayPath = displayPath
        self.fileBytes = fileBytes
        self.walBytes = walBytes
        self.isWALMode = isWALMode
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.metadataVersion = metadataVersion
        self.storeUUID = storeUUID
        self.isMetadataPlistReadable = isMetadataPlistReadable
        self.storeType = storeType
        self.modelVersionHashes = modelVersionHashes
        self.modelVersionIdentifiers = modelVersionIdentifiers
        self.modelVersionHashesVersion = modelVersionHashesVersion
        self.modelVersionChecksum = modelVersionChecksum
        self.frameworkVersion = frameworkVersion
        self.otherMetadataKeys = otherMetadataKeys
        self.entities = entities
        self.tables = tables
        self.diagnostics = diagnostics
    }

    /// The entity with this `Z_ENT`.
    package func entity(number: Int) -> StoreEntity? { entities.first { $0.number == number } }
    /// The entity with this name (case-sensitive, as in `Z_PRIMARYKEY.Z_NAME`).
    package func entity(named name: String) -> StoreEntity? { entities.first { $0.name == name } }
    /// The table with this name (SQLite table names are case-insensitive).
    package func table(named name: String) -> StoreTable? {
        let upper = name.uppercased()
        return tables.first { $0.name.uppercased() == upper }
    }
    /// The table holding `entity`'s rows: its inheritance root's `Z<ROOT>` (present even with
    /// no rows); nil for Core Data's own entities or when the table is missing.
    package func table(of entity: StoreEntity) -> StoreTable? {
        guard !entity.isSystemEntity else { return nil }
        let root = "Z" + StoreReader.rootName(of: entity, in: entities).uppercased()
        return tables.first { $0.kind == .entity && $0.name.uppercased() == root }
    }

    /// The logical database size (page size × page count).
    package var databaseBytes: Int { pageSize * pageCount }
}

/// One `Z_PRIMARYKEY` row.
package struct StoreEntity: Sendable, Hashable {
    /// `Z_ENT`.
    package var number: Int
    /// `Z_NAME`, the entity name.
    package var name: String
    /// `Z_SUPER`, the parent's `Z_ENT` (0 for a root entity).
    package var superNumber: Int
    /// `Z_MAX`, the last primary key handed out (kept on the root entity of a hierarchy).
    package var maxPrimaryKey: Int
    /// Rows whose `Z_ENT` is this entity in its hierarchy's table; nil when no table was found.
    package var rowCount: Int?

    package init(number: Int, name: String, superNumber: Int, maxPrimaryKey: Int, rowCount: Int? = nil) {
        self.number = number
        self.name = name
        self.superNumber = superNumber
        self.maxPrimaryKey = maxPrimaryKey
        self.rowCount = rowCount
    }

    /// Core Data's own entities (persistent history, CloudKit mirroring) are numbered from 16000.
    package var isSystemEntity: Bool { number >= 16000 }
}

/// One table of the store.
package struct StoreTable: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        /// `Z<ROOTENTITY>`: one per inheritance root, with `Z_PK`, `Z_ENT`, `Z_OPT`.
        case entity
        /// `Z_<n><RELATIONSHIP>`: a many-to-many join table.
        case join
        /// `Z_METADATA`, `Z_PRIMARYKEY`, `Z_MODELCACHE`.
        case coreData
        /// Anything else: Core Data's history/mirroring tables, tables an app added itself.
        case other
    }

    package var name: String
    package var kind: Kind
    /// Columns in table order.
    package var columns: [StoreColumn]
    package var rowCount: Int
    /// Rows per `Z_ENT` value, for tables with a `Z_ENT` column.
    package var rowCountsByEntity: [Int: Int]
    /// Average record payload per row in bytes (from `dbstat`, or a bounded sample), nil when empty.
    package var averageRowBytes: Int?

    package init(name: String, kind: Kind, columns: [StoreColumn], rowCount: Int = 0,
                rowCountsByEntity: [Int: Int] = [:], averageRowBytes: Int? = nil) {
        self.name = name
        self.kind = kind
        self.columns = columns
        self.rowCount = rowCount
        self.rowCountsByEntity = rowCountsByEntity
        self.averageRowBytes = averageRowBytes
    }

    package var columnNames: [String] { columns.map(\.name) }
}

/// One column: its name and declared type (`INTEGER`, `VARCHAR`, `TIMESTAMP`, …).
package struct StoreColumn: Sendable, Hashable {
    package var name: String
    package var declaredType: String
}
