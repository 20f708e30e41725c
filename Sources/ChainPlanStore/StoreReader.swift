import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
import Foundation
import GRDB

/// Reads a Core Data SQLite store's metadata from a private scratch copy.
///
/// The original is never opened with SQLite (see `StoreScratchCopy`). The copy is opened
/// with GRDB in `query_only` mode with `trusted_schema` off, `cell_size_check` on and no
/// memory mapping; every query is bounded (row limits on system tables, a size limit on
/// the metadata plist, a watchdog that interrupts SQLite after `queryTimeout`).
///
/// Decisions:
/// - Not a regular file, empty, no SQLite header (random or encrypted bytes), truncated,
///   malformed, or no `Z_METADATA`/`Z_PRIMARYKEY` table: CP300 error (thrown).
/// - `Z_METADATA` present but without a row, or a `Z_PLIST` that is missing or not a property
///   list: CP300 **error** (unusable input) in `StoreMetadata.diagnostics`, since Core Data
///   itself cannot open such a store; reading goes on, because its tables still suggest the
///   model version by structure, which is what a reviewer needs to know. A plist over
///   `maxPlistBytes` (chainplan's own limit, not Core Data's) is a CP300 warning.
package struct StoreReader: Sendable {
    /// Largest `Z_PLIST` decoded (Apple's are a few kilobytes).
    package var maxPlistBytes: Int
    /// Largest number of `Z_PRIMARYKEY` rows or tables accepted.
    package var maxSchemaObjects: Int
    /// Rows sampled per table when `dbstat` is unavailable to estimate row sizes.
    package var sampleRows: Int
    /// SQLite work is interrupted after this many seconds (a hostile file cannot hang the tool).
    package var queryTimeout: TimeInterval
    /// Reading progress, 0…1 (tables counted so far).
    package var progress: (@Sendable (Double) -> Void)?

    package init(maxPlistBytes: Int = 16 << 20, maxSchemaObjects: Int = 100_000, sampleRows: Int = 1000,
                queryTimeout: TimeInterval = 300) {
        self.maxPlistBytes = maxPlistBytes
        self.maxSchemaObjects = maxSchemaObjects
        self.sampleRows = sampleRows
        self.queryTimeout = queryTimeout
    }

    /// Copies the store at `path` to a scratch directory, reads it, and removes the copy.
    package func read(
        storeAt path: String, displayPath: String? = nil, lockTimeout: TimeInterval = 5,
        temporaryDirectory: URL? = nil
    ) throws(StoreError) -> StoreMetadata {
        let copy = try StoreScratchCopy.make(
            storeAt: path, displayPath: displayPath, lockTimeout: lockTimeout, temporaryDirectory: temporaryDirectory)
        defer { copy.remove() }
        return try read(copy: copy)
    }

    /// Reads a scratch copy (which stays in place for further use, e.g. a dry-run migration).
    package func read(copy: StoreScratchCopy) throws(StoreError) -> StoreMetadata {
        let shown = copy.displayPath
        let header = try SQLiteHeader.read(copy.storeURL.path, shown)
        let fileBytes = Self.fileSize(copy.storeURL.path) ?? 0
        let walBytes = copy.hasWAL ? Self.fileSize(copy.storeURL.path + "-wal") : nil

        let queue: DatabaseQueue
        do {
            let configuration = GRDB.Configuration.chainplan(
                label: "chainplan.store", pragmas: ["trusted_schema = OFF", "cell_size_check = ON", "mmap_size = 0", "query_only = ON"])
            queue = try DatabaseQueue(path: copy.storeURL.path, configuration: configuration)
        } catch {
            throw StoreError.unreadable(shown, "cannot be opened as a SQLite database: \(Self.describe(error))")
        }

        let watchdog = DispatchWorkItem { [weak queue] in queue?.interrupt() }
        let timeout = queryTimeout.isFinite ? min(max(queryTimeout, 0.001), 86_400) : 86_400
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }

        var metadata = StoreMetadata(displayPath: shown, fileBytes: fileBytes, walBytes: walBytes,
                                     isWALMode: header.isWAL)
        do {
            try queue.inDatabase { db in
                try readSchema(db, into: &metadata)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            if Self.isInterrupt(error) {
                throw StoreError.unreadable(shown, "took longer than \(NumberText.short(timeout)) s to read")
            }
            throw StoreError.unreadable(shown, "is not a readable SQLite database: \(Self.describe(error))")
        }
        metadata.diagnostics.sort()
        return metadata
    }

    // MARK: - Schema

    private func readSchema(_ db: Database, into metadata: inout StoreMetadata) throws {
        let shown = metadata.displayPath
        metadata.pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        metadata.pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0

        let master = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' LIMIT ?", arguments: [maxSchemaObjects + 1])
        if master.count > maxSchemaObjects {
            throw StoreError.unreadable(shown, "has more than \(maxSchemaObjects) tables")
        }
        var tableNames: [String] = []
        var virtualTables: Set<String> = []
        for row in master {
            guard let name = row["name"] as String? else { continue }
            if name.lowercased().hasPrefix("sqlite_") { continue }
            tableNames.append(name)
            let sql = (row["sql"] as String?) ?? ""
            if sql.uppercased().hasPrefix("CREATE VIRTUAL") { virtualTables.insert(name) }
        }
        let upperNames = Dictionary(tableNames.map { ($0.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        guard let metadataTable = upperNames["Z_METADATA"], !virtualTables.contains(metadataTable) else {
            throw StoreError.unreadable(shown, "is a SQLite database but not a Core Data store (no Z_METADATA table)")
        }
        guard let primaryKeyTable = upperNames["Z_PRIMARYKEY"], !virtualTables.contains(primaryKeyTable) else {
            throw StoreError.unreadable(shown, "is a SQLite database but not a Core Data store (no Z_PRIMARYKEY table)")
        }

        try readMetadataTable(db, table: metadataTable, into: &metadata)
        metadata.entities = try readPrimaryKeys(db, table: primaryKeyTable, shown)

        let systemNames = Set(metadata.entities.filter(\.isSystemEntity).map { $0.name.uppercased() })
        var tables: [StoreTable] = []
        let readable = tableNames.sorted().filter { !virtualTables.contains($0) }
        for (position, name) in readable.enumerated() {
            progress?(0.9 * Double(position) / Double(max(readable.count, 1)))
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(Self.quote(name)))").compactMap { row -> StoreColumn? in
                guard let column = row["name"] as String? else { return nil }
                return StoreColumn(name: column, declaredType: (row["type"] as String?) ?? "")
            }
            let kind = Self.kind(of: name, columns: columns, systemEntityNames: systemNames)
            var table = StoreTable(name: name, kind: kind, columns: columns)
            let hasEntityColumn = columns.contains { $0.name.uppercased() == "Z_ENT" }
            if hasEntityColumn && kind == .entity {
                for row in try Row.fetchAll(db, sql: "SELECT Z_ENT AS ent, COUNT(*) AS n FROM \(Self.quote(name)) GROUP BY Z_ENT") {
                    let count = (row["n"] as Int?) ?? 0
                    table.rowCount += count
                    if let ent = row["ent"] as Int? { table.rowCountsByEntity[ent] = count }
                }
            } else {
                table.rowCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(Self.quote(name))") ?? 0
            }
            tables.append(table)
        }
        try estimateRowSizes(db, tables: &tables)
        progress?(1)
        metadata.tables = tables

        // Per-entity counts: rows carrying the entity's Z_ENT in its root's table.
        for index in metadata.entities.indices {
            let entity = metadata.entities[index]
            guard !entity.isSystemEntity else { continue }
            if let table = metadata.table(of: entity) {
                metadata.entities[index].rowCount = table.rowCountsByEntity[entity.number] ?? 0
            }
        }
    }

    private func readMetadataTable(_ db: Database, table: String, into metadata: inout StoreMetadata) throws {
        let shown = metadata.displayPath
        let location = SourceLocation(file: shown)
        let rows: [Row]
        do {
            rows = try Row.fetchAll(
                db, sql: "SELECT Z_VERSION AS version, Z_UUID AS uuid, length(Z_PLIST) AS size FROM \(Self.quote(table)) ORDER BY Z_VERSION LIMIT 1")
        } catch {
            throw StoreError.unreadable(shown, "has a malformed Z_METADATA table: \(Self.describe(error))")
        }
        guard let row = rows.first else {
            metadata.isMetadataPlistReadable = false
            metadata.diagnostics.append(Diagnostic(.unreadableStore,
                "store '\(shown)' has no row in Z_METADATA, so Core Data cannot open it; only its tables suggest its model version", at: location))
            return
        }
        metadata.metadataVersion = row["version"] as Int?
        metadata.storeUUID = row["uuid"] as String?
        let size = (row["size"] as Int?) ?? 0
        guard size > 0 else {
            metadata.isMetadataPlistReadable = false
            metadata.diagnostics.append(Diagnostic(.unreadableStore,
                "store '\(shown)' has no metadata plist (Z_PLIST is empty), so Core Data cannot open it; only its tables suggest its model version", at: location))
            return
        }
        guard size <= maxPlistBytes else {
            metadata.isMetadataPlistReadable = false
            metadata.diagnostics.append(Diagnostic(.unreadableStore, severity: .warning,
                "store '\(shown)' has a metadata plist of \(size) bytes, over the limit of \(maxPlistBytes); only its tables can identify its model version", at: location))
            return
        }
        let blob = try Data.fetchOne(
            db, sql: "SELECT CAST(Z_PLIST AS BLOB) FROM \(Self.quote(table)) ORDER BY Z_VERSION LIMIT 1") ?? Data()
        guard let plist = MetadataPlist.decode(blob) else {
            metadata.isMetadataPlistReadable = false
            metadata.diagnostics.append(Diagnostic(.unreadableStore,
                "store '\(shown)' has a corrupted metadata plist (Z_PLIST is not a property list), so Core Data cannot open it; only its tables suggest its model version", at: location))
            return
        }
        metadata.storeType = plist.storeType
        metadata.modelVersionHashes = plist.hashes
        metadata.modelVersionIdentifiers = plist.identifiers
        metadata.modelVersionHashesVersion = plist.hashesVersion
        metadata.modelVersionChecksum = plist.checksum
        metadata.modelVersionHashesDigest = plist.digest
        metadata.frameworkVersion = plist.frameworkVersion
        metadata.otherMetadataKeys = plist.otherKeys
        metadata.deferredMigrationKey = plist.deferredKey
        if metadata.storeUUID == nil { metadata.storeUUID = plist.storeUUID }
        for problem in plist.problems {
            metadata.diagnostics.append(Diagnostic(.unreadableStore, severity: .warning, "store '\(shown)' \(problem)", at: location))
        }
    }

    private func readPrimaryKeys(_ db: Database, table: String, _ shown: String) throws -> [StoreEntity] {
        let rows: [Row]
        do {
            rows = try Row.fetchAll(
                db, sql: "SELECT Z_ENT AS ent, Z_NAME AS name, Z_SUPER AS super, Z_MAX AS max FROM \(Self.quote(table)) ORDER BY Z_ENT LIMIT ?",
                arguments: [maxSchemaObjects + 1])
        } catch {
            throw StoreError.unreadable(shown, "has a malformed Z_PRIMARYKEY table: \(Self.describe(error))")
        }
        if rows.count > maxSchemaObjects {
            throw StoreError.unreadable(shown, "has more than \(maxSchemaObjects) rows in Z_PRIMARYKEY")
        }
        return rows.compactMap { row in
            guard let number = row["ent"] as Int?, let name = row["name"] as String? else { return nil }
            return StoreEntity(number: number, name: name, superNumber: (row["super"] as Int?) ?? 0,
                               maxPrimaryKey: (row["max"] as Int?) ?? 0)
        }
    }

    /// Average payload bytes per row: `dbstat` in aggregate mode when compiled in, else a
    /// sample of at most `sampleRows` rows per table.
    private func estimateRowSizes(_ db: Database, tables: inout [StoreTable]) throws {
        var payloads: [String: Int] = [:]
        if let rows = try? Row.fetchAll(db, sql: "SELECT name, payload FROM dbstat WHERE aggregate = TRUE") {
            for row in rows {
                if let name = row["name"] as String? { payloads[name.uppercased()] = (row["payload"] as Int?) ?? 0 }
            }
            for index in tables.indices where tables[index].rowCount > 0 {
                if let payload = payloads[tables[index].name.uppercased()] {
                    tables[index].averageRowBytes = Int((Double(payload) / Double(tables[index].rowCount)).rounded())
                }
            }
            return
        }
        for index in tables.indices where tables[index].rowCount > 0 && !tables[index].columns.isEmpty {
            let sizes = tables[index].columns
                .map { "ifnull(length(CAST(\(Self.quote($0.name)) AS BLOB)), 0)" }
                .joined(separator: " + ")
            let sql = "SELECT avg(\(sizes)) FROM (SELECT * FROM \(Self.quote(tables[index].name)) LIMIT \(max(1, sampleRows)))"
            if let average = try Double.fetchOne(db, sql: sql) {
                tables[index].averageRowBytes = Int(average.rounded())
            }
        }
    }

    // MARK: - Helpers

    static func kind(of name: String, columns: [StoreColumn], systemEntityNames: Set<String>) -> StoreTable.Kind {
        let upper = name.uppercased()
        if ["Z_METADATA", "Z_PRIMARYKEY", "Z_MODELCACHE"].contains(upper) { return .coreData }
        let columnNames = Set(columns.map { $0.name.uppercased() })
        if upper.hasPrefix("Z_") {
            let rest = upper.dropFirst(2)
            if let first = rest.first, first.isASCII, first.isNumber, !columnNames.contains("Z_PK") { return .join }
            return .other
        }
        if upper.hasPrefix("Z"), upper.count > 1, columnNames.contains("Z_PK") {
            let bare = String(upper.dropFirst())
            if systemEntityNames.contains(bare) || systemEntityNames.contains(upper) { return .other }
            return .entity
        }
        return .other
    }

    /// The name of the root of `entity`'s hierarchy (following `Z_SUPER`, cycle-safe).
    static func rootName(of entity: StoreEntity, in entities: [StoreEntity]) -> String {
        let byNumber = Dictionary(entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var current = entity
        var seen: Set<Int> = [entity.number]
        while current.superNumber != 0, let parent = byNumber[current.superNumber], seen.insert(parent.number).inserted {
            current = parent
        }
        return current.name
    }

    static func quote(_ identifier: String) -> String {
        LiveSchema.quote(identifier)
    }

    static func fileSize(_ path: String) -> Int? {
        guard case .success(.regular(let size)) = FileAccess.kind(at: path) else { return nil }
        return size
    }

    static func isInterrupt(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
    }

    /// SQLite's message without GRDB's decorations (no SQL text, which may echo names).
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return "\(error)"
    }
}

/// The 100-byte SQLite header, checked before SQLite sees the file.
struct SQLiteHeader {
    var pageSize: Int
    var isWAL: Bool

    static let magic = Array("SQLite format 3\0".utf8)

    static func read(_ path: String, _ shown: String) throws(StoreError) -> SQLiteHeader {
        guard case .success(let data) = FileAccess.readPrefix(path, count: 100) else {
            throw StoreError.unreadable(shown, "cannot be read")
        }
        let bytes = [UInt8](data)
        guard bytes.count >= 16, Array(bytes[0..<16]) == magic else {
            throw StoreError.unreadable(shown, "is not a SQLite database (no SQLite header: another format, encrypted or random bytes)")
        }
        guard bytes.count == 100 else {
            throw StoreError.unreadable(shown, "is truncated (\(bytes.count) bytes, shorter than a SQLite header)")
        }
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw StoreError.unreadable(shown, "is not a valid SQLite database (page size \(rawPageSize))")
        }
        func word(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        let changeCounter = word(24)
        let declaredPages = word(28)
        let validFor = word(92)
        let size = StoreReader.fileSize(path) ?? 0
        if size % pageSize != 0 {
            throw StoreError.unreadable(shown, "is truncated (\(size) bytes is not a whole number of \(pageSize)-byte pages)")
        }
        // The in-header size is trustworthy when its version-valid-for matches the change counter.
        if validFor == changeCounter, declaredPages > 0, size < declaredPages * pageSize {
            throw StoreError.unreadable(shown, "is truncated (\(size) bytes; its header declares \(declaredPages) pages of \(pageSize) bytes)")
        }
        return SQLiteHeader(pageSize: pageSize, isWAL: bytes[18] == 2 && bytes[19] == 2)
    }
}

/// The decoded `Z_PLIST`.
struct MetadataPlist {
    var storeType: String?
    var hashes: [String: Data] = [:]
    var identifiers: [String] = []
    var hashesVersion: Int?
    var checksum: String?
    var digest: String?
    var frameworkVersion: Int?
    var storeUUID: String?
    var otherKeys: [String] = []
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` is true (reference §7.3).
    var deferredKey = false
    /// Keys with unexpected value types (described without their values).
    var problems: [String] = []

    static let knownKeys: Set<String> = [
        "NSStoreType", "NSStoreModelVersionHashes", "NSStoreModelVersionIdentifiers",
        "NSStoreModelVersionHashesVersion", "NSStoreModelVersionChecksumKey", "NSPersistenceFrameworkVersion",
        "NSStoreUUID", "NSStoreModelVersionHashesDigest",
    ]

    /// Decodes a binary (or XML) plist dictionary; nil when it is not one, or when
    /// `PropertyListReader` refuses it.
    static func decode(_ data: Data) -> MetadataPlist? {
        guard case .success(let object) = PropertyListReader.read(data), let dictionary = object as? [String: Any]
        else { return nil }
        var plist = MetadataPlist()
        plist.storeType = dictionary["NSStoreType"] as? String
        if let value = dictionary["NSStoreModelVersionHashes"] {
            if let hashes = value as? [String: Any] {
                for (entity, hash) in hashes {
                    if let hash = hash as? Data { plist.hashes[entity] = hash } else {
                        plist.problems.append("has a version hash for entity '\(entity)' that is not data")
                    }
                }
            } else {
                plist.problems.append("has NSStoreModelVersionHashes that is not a dictionary")
            }
        }
        if let value = dictionary["NSStoreModelVersionIdentifiers"] {
            if let list = value as? [Any] {
                plist.identifiers = list.compactMap { $0 as? String }
                if plist.identifiers.count != list.count {
                    plist.problems.append("has NSStoreModelVersionIdentifiers entries that are not strings")
                }
            } else if let single = value as? String {
                plist.identifiers = [single]
            } else {
                plist.problems.append("has NSStoreModelVersionIdentifiers that is not a list")
            }
        }
        plist.hashesVersion = integer(dictionary["NSStoreModelVersionHashesVersion"])
        plist.checksum = dictionary["NSStoreModelVersionChecksumKey"] as? String
        plist.digest = dictionary["NSStoreModelVersionHashesDigest"] as? String
        plist.frameworkVersion = integer(dictionary["NSPersistenceFrameworkVersion"])
        plist.storeUUID = dictionary["NSStoreUUID"] as? String
        switch dictionary["NSPersistentStoreDeferredLightweightMigrationOptionKey"] {
        case let flag as Bool: plist.deferredKey = flag
        case let number as NSNumber: plist.deferredKey = number.boolValue
        default: break
        }
        plist.otherKeys = dictionary.keys.filter { !knownKeys.contains($0) }.sorted()
        plist.problems.sort()
        return plist
    }

    static func integer(_ value: Any?) -> Int? {
        switch value {
        case let number as Int: number
        case let number as NSNumber: number.intValue
        case let text as String: Int(text)
        default: nil
        }
    }
}

extension FileAccess {
    /// The first `count` bytes of a regular file (fewer when it is shorter).
    static func readPrefix(_ path: String, count: Int) -> Result<Data, FileProblem> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(.unreadable(path, reason: "cannot open"))
        }
        defer { try? handle.close() }
        do {
            return .success(try handle.read(upToCount: count) ?? Data())
        } catch {
            return .failure(.unreadable(path, reason: "\(error)"))
        }
    }
}
