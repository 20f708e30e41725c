import ChainPlanCore
import Foundation

/// What chainplan knows about a Core Data SQLite store: its metadata, entities, tables,
/// row counts and sizes.
///
/// Values from the user's rows never appear here: only names, counts and sizes. The
/// metadata plist's own keys are kept as names (`otherMetadataKeys`) because apps store
/// private values (tokens, identifiers) next to Core Data's keys.
public struct StoreMetadata: Sendable, Hashable {
    /// The store's path as shown in diagnostics.
    public var displayPath: String
    /// Size of the store file itself, in bytes.
    public var fileBytes: Int
    /// Size of the `-wal` file, when there was one.
    public var walBytes: Int?
    /// True when the database header says WAL mode (file format version 2).
    public var isWALMode: Bool
    /// The page size and page count as SQLite sees them (after applying the WAL).
    public var pageSize: Int
    public var pageCount: Int
    /// `Z_METADATA.Z_VERSION` (always 1 in practice).
    public var metadataVersion: Int?
    /// `Z_METADATA.Z_UUID`, the store UUID (falls back to the plist's `NSStoreUUID`).
    public var storeUUID: String?
    /// False when `Z_PLIST` was missing or could not be decoded (a CP300 says why).
    public var isMetadataPlistReadable: Bool
    /// `NSStoreType` (`SQLite`).
    public var storeType: String?
    /// `NSStoreModelVersionHashes`: entity name → version hash (32 bytes in Apple's stores).
    public var modelVersionHashes: [String: Data]
    /// `NSStoreModelVersionIdentifiers`: often `[""]`; a merged model gives several, e.g. `["", "3"]`.
    public var modelVersionIdentifiers: [String]
    /// `NSStoreModelVersionHashesVersion` (3 in every store seen).
    public var modelVersionHashesVersion: Int?
    /// `NSStoreModelVersionChecksumKey` (base64 text), compared with a compiled model's checksums.
    public var modelVersionChecksum: String?
    /// `NSStoreModelVersionHashesDigest` (base64 SHA-512 of the hashes; absent before Core Data 977).
    public var modelVersionHashesDigest: String? = nil
    /// `NSPersistenceFrameworkVersion`: the Core Data build that last saved the store.
    public var frameworkVersion: Int?
    /// Every other key of the metadata plist, by name only (values are the app's business).
    public var otherMetadataKeys: [String]
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` is true in the metadata: a
    /// migration deferred work and it was not all finished (or the key is stale, §7.3).
    public var deferredMigrationKey = false
    /// `Z_PRIMARYKEY` rows, ordered by `Z_ENT`.
    public var entities: [StoreEntity]
    /// Every table of the database except SQLite's own, ordered by name.
    public var tables: [StoreTable]
    /// Non-fatal findings (e.g. an unreadable metadata plist), sorted.
    public var diagnostics: [Diagnostic]

    public init(
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
    public func entity(number: Int) -> StoreEntity? { entities.first { $0.number == number } }
    /// The entity with this name (case-sensitive, as in `Z_PRIMARYKEY.Z_NAME`).
    public func entity(named name: String) -> StoreEntity? { entities.first { $0.name == name } }
    /// The table with this name (SQLite table names are case-insensitive).
    public func table(named name: String) -> StoreTable? {
        let upper = name.uppercased()
        return tables.first { $0.name.uppercased() == upper }
    }
    /// The table holding `entity`'s rows: its inheritance root's `Z<ROOT>` (present even with
    /// no rows); nil for Core Data's own entities or when the table is missing.
    public func table(of entity: StoreEntity) -> StoreTable? {
        guard !entity.isSystemEntity else { return nil }
        let root = "Z" + StoreReader.rootName(of: entity, in: entities).uppercased()
        return tables.first { $0.kind == .entity && $0.name.uppercased() == root }
    }

    /// The logical database size (page size × page count).
    public var databaseBytes: Int { pageSize * pageCount }
}

/// One `Z_PRIMARYKEY` row.
public struct StoreEntity: Sendable, Hashable {
    /// `Z_ENT`.
    public var number: Int
    /// `Z_NAME`, the entity name.
    public var name: String
    /// `Z_SUPER`, the parent's `Z_ENT` (0 for a root entity).
    public var superNumber: Int
    /// `Z_MAX`, the last primary key handed out (kept on the root entity of a hierarchy).
    public var maxPrimaryKey: Int
    /// Rows whose `Z_ENT` is this entity in its hierarchy's table; nil when no table was found.
    public var rowCount: Int?

    public init(number: Int, name: String, superNumber: Int, maxPrimaryKey: Int, rowCount: Int? = nil) {
        self.number = number
        self.name = name
        self.superNumber = superNumber
        self.maxPrimaryKey = maxPrimaryKey
        self.rowCount = rowCount
    }

    /// Core Data's own entities (persistent history, CloudKit mirroring) are numbered from 16000.
    public var isSystemEntity: Bool { number >= 16000 }
}

/// One table of the store.
public struct StoreTable: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// `Z<ROOTENTITY>`: one per inheritance root, with `Z_PK`, `Z_ENT`, `Z_OPT`.
        case entity
        /// `Z_<n><RELATIONSHIP>`: a many-to-many join table.
        case join
        /// `Z_METADATA`, `Z_PRIMARYKEY`, `Z_MODELCACHE`.
        case coreData
        /// Anything else: Core Data's history/mirroring tables, tables an app added itself.
        case other
    }

    public var name: String
    public var kind: Kind
    /// Columns in table order.
    public var columns: [StoreColumn]
    public var rowCount: Int
    /// Rows per `Z_ENT` value, for tables with a `Z_ENT` column.
    public var rowCountsByEntity: [Int: Int]
    /// Average record payload per row in bytes (from `dbstat`, or a bounded sample), nil when empty.
    public var averageRowBytes: Int?

    public init(name: String, kind: Kind, columns: [StoreColumn], rowCount: Int = 0,
                rowCountsByEntity: [Int: Int] = [:], averageRowBytes: Int? = nil) {
        self.name = name
        self.kind = kind
        self.columns = columns
        self.rowCount = rowCount
        self.rowCountsByEntity = rowCountsByEntity
        self.averageRowBytes = averageRowBytes
    }

    public var columnNames: [String] { columns.map(\.name) }
}

/// One column: its name and declared type (`INTEGER`, `VARCHAR`, `TIMESTAMP`, …).
public struct StoreColumn: Sendable, Hashable {
    public var name: String
    public var declaredType: String
}
