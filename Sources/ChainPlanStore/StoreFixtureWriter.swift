import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChainPlanHashing
import ChainPlanInference
import ChainPlanReaders

/// Why a fixture could not be written.
package struct FixtureWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}

/// What `StoreFixtureWriter` wrote.
package struct FixtureSummary: Sendable, Hashable {
    package var path: String
    package var versionName: String
    /// Rows per concrete (non-abstract) entity.
    package var rowsPerEntity: [String: Int]
    /// Rows per many-to-many join table.
    package var joinRows: [String: Int]
    /// File size after writing.
    package var bytes: Int

    package var totalEntityRows: Int { rowsPerEntity.values.reduce(0, +) }
}

/// Writes a synthetic SQLite store in Core Data's layout for one model version, for tests
/// and for sizing migrations (`chainplan fixture`).
///
/// The schema follows `StoreLayout`: `Z_PRIMARYKEY` (entities numbered depth-first by
/// name), `Z_METADATA`, an empty `Z_MODELCACHE`, one table per inheritance root with typed
/// columns, foreign-key columns and indexes, join tables for many-to-many relationships.
/// Each concrete (non-abstract) entity gets `rowsPerEntity` rows of deterministic values
/// from a seeded generator: same model, seed and count give the same bytes except the
/// file's own SQLite bookkeeping.
///
/// Metadata written: `NSStoreType` = `SQLite`, `NSStoreModelVersionIdentifiers` = the
/// model's version identifier (or `[""]`), `NSStoreUUID` (seeded), `Z_UUID`,
/// `NSStoreModelVersionHashesVersion` = 3, `_NSAutoVacuumLevel` = `"2"`, and
/// `ChainPlanFixtureVersion` = the version name, which marks the file as synthetic.
/// `NSStoreModelVersionHashes` (entity → 32 bytes), `NSStoreModelVersionChecksumKey` and
/// `NSStoreModelVersionHashesDigest` are the model's Core Data version hashes, computed by the
/// hash engine (§1), so the store is identified by hash exactly as one Core Data wrote; a
/// model the engine cannot hash gets none of the three (identified by identifiers or structure).
///
/// Values: integers and booleans random in small ranges; floats and decimals with two
/// decimals; dates between 2020 and 2024 (seconds since 2001); strings `"<attribute> <pk>"`;
/// URIs `https://example.com/<entity>/<pk>`; binary data 16 random bytes; UUIDs random
/// version-4 bytes; Transformable always NULL (no valid archive can be made up). Optional
/// attributes and to-one relationships are NULL on every tenth row. Attributes in a
/// uniqueness constraint derive from the primary key, so constraints hold. To-one keys
/// point at random rows of the destination (one-to-one: the row with the same index);
/// every row of a many-to-many's first side links to two distinct rows of the other side.
///
/// The file is written in one transaction with prepared statements, journal off and
/// synchronous off, then switched to rollback-journal mode (no `-wal` to carry around).
/// Memory use does not grow with the row count.
package struct StoreFixtureWriter: Sendable {
    package var rowsPerEntity: Int
    package var seed: UInt64
    /// Sets `NSPersistentStoreDeferredLightweightMigrationOptionKey` in the metadata, as Core Data
    /// does after a migration that deferred work (reference §7.3).
    package var deferredMigrationKey = false
    /// Upper bound accepted for `rowsPerEntity`.
    package static let maxRowsPerEntity = 100_000_000

    package init(rowsPerEntity: Int, seed: UInt64 = 0x5EED_CAFE) {
        self.rowsPerEntity = rowsPerEntity
        self.seed = seed
    }

    /// Writes the fixture to `path`, which must not exist (an existing file is never replaced).
    package func write(model: ObjectModel, versionName: String, to path: String) throws(FixtureWriteError) -> FixtureSummary {
        guard rowsPerEntity >= 0, rowsPerEntity <= Self.maxRowsPerEntity else {
            throw FixtureWriteError("rows per entity must be between 0 and \(Self.maxRowsPerEntity), not \(rowsPerEntity)")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it already exists" : String(cString: strerror(errno))
            throw FixtureWriteError("cannot write fixture '\(path)': \(reason)")
        }
        close(descriptor)

        let layout = StoreLayout(model: model)
        var summary = FixtureSummary(path: path, versionName: versionName, rowsPerEntity: [:], joinRows: [:], bytes: 0)
        do {
            let configuration = GRDB.Configuration.chainplan(
                label: "chainplan.fixture", pragmas: ["journal_mode = OFF", "synchronous = OFF", "cache_size = -65536", "temp_store = MEMORY"])
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in
                try db.inTransaction {
                    try createSchema(db, layout)
                    try writeMetadata(db, model: model, versionName: versionName, layout: layout)
                    summary.rowsPerEntity = try writeEntityRows(db, model: model, layout: layout)
                    summary.joinRows = try writeJoinRows(db, layout: layout)
                    for index in layout.indexes {
                        let columns = index.columns.map { StoreReader.quote($0) + (index.isUnique ? " COLLATE BINARY ASC" : "") }
                        try db.execute(sql: "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(StoreReader.quote(index.name)) ON \(StoreReader.quote(index.table)) (\(columns.joined(separator: ", ")))")
                    }
                    return .commit
                }
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
            }
            try queue.close()
        } catch {
            unlink(path)
            throw FixtureWriteError("cannot write fixture '\(path)': \(StoreReader.describe(error))")
        }
        summary.bytes = StoreReader.fileSize(path) ?? 0
        return summary
    }

    // MARK: - Schema and metadata

    private func createSchema(_ db: Database, _ layout: StoreLayout) throws {
        try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        for table in layout.tables {
            let columns = table.columns.map { column in
                StoreReader.quote(column.name) + " " + column.sqlType + (column.role == .primaryKey ? " PRIMARY KEY" : "")
            }
            try db.execute(sql: "CREATE TABLE \(StoreReader.quote(table.name)) ( \(columns.joined(separator: ", ")) )")
        }
        for join in layout.joinTables {
            var columns = ["\(StoreReader.quote(join.first.column)) INTEGER", "\(StoreReader.quote(join.second.column)) INTEGER"]
            for order in [join.first.orderColumn, join.second.orderColumn].compactMap({ $0 }) {
                columns.append("\(StoreReader.quote(order)) INTEGER")
            }
            columns.append("PRIMARY KEY (\(StoreReader.quote(join.first.column)), \(StoreReader.quote(join.second.column)))")
            try db.execute(sql: "CREATE TABLE \(StoreReader.quote(join.name)) ( \(columns.joined(separator: ", ")) )")
        }
    }

    private func writeMetadata(_ db: Database, model: ObjectModel, versionName: String, layout: StoreLayout) throws {
        let concrete = concreteCounts(layout)
        for slot in layout.entities {
            let max = slot.superNumber == 0 ? (concrete[slot.rootName] ?? 0) * rowsPerEntity : 0
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                           arguments: [slot.number, slot.name, slot.superNumber, max])
        }
        var random = SplitMix64(seed: seed ^ 0x0055_5549_4400)
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString
        var entries: [(String, BinaryPlistWriter.Value)] = [
            ("NSStoreType", .string("SQLite")),
            ("NSStoreModelVersionIdentifiers", .array([.string(model.versionIdentifier ?? "")])),
            ("NSStoreUUID", .string(uuid)),
            ("NSStoreModelVersionHashesVersion", .integer(3)),
            ("_NSAutoVacuumLevel", .string("2")),
            ("ChainPlanFixtureVersion", .string(versionName)),
        ]
        if deferredMigrationKey { entries.append(("NSPersistentStoreDeferredLightweightMigrationOptionKey", .bool(true))) }
        if case .success(let hashes) = ModelHasher.hash(model) {
            let entities = hashes.entityNames.map { ($0, BinaryPlistWriter.Value.data(hashes.entities[$0] ?? Data())) }
            entries += [
                ("NSStoreModelVersionHashes", .dictionary(entities)),
                ("NSStoreModelVersionChecksumKey", .string(hashes.checksum)),
                ("NSStoreModelVersionHashesDigest", .string(hashes.digest)),
            ]
        }
        let data = BinaryPlistWriter.encode(.dictionary(entries))
        try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", arguments: [uuid, data])
    }

    /// Concrete entities per root.
    private func concreteCounts(_ layout: StoreLayout) -> [String: Int] {
        var counts: [String: Int] = [:]
        for slot in layout.entities where !slot.isAbstract { counts[slot.rootName, default: 0] += 1 }
        return counts
    }

    // MARK: - Rows

    /// Where the rows of one concrete entity live: its table and its primary-key block.
    private struct Block {
        var entity: String
        var number: Int
        var table: String
        /// Primary keys are `firstKey ..< firstKey + rowsPerEntity`.
        var firstKey: Int
    }

    private func blocks(_ layout: StoreLayout) -> [String: Block] {
        var result: [String: Block] = [:]
        var nextKey: [String: Int] = [:]
        let tableOf = Dictionary(layout.tables.map { ($0.rootEntity, $0.name) }, uniquingKeysWith: { first, _ in first })
        for slot in layout.entities where !slot.isAbstract {
            guard let table = tableOf[slot.rootName] else { continue }
            let first = nextKey[table, default: 1]
            result[slot.name] = Block(entity: slot.name, number: slot.number, table: table, firstKey: first)
            nextKey[table] = first + rowsPerEntity
        }
        return result
    }

    /// The concrete entities of `entity`'s subtree (itself included), in layout order.
    private func concreteSubtree(_ entity: String, _ layout: StoreLayout) -> [String] {
        let parentOf = Dictionary(layout.entities.map { ($0.number, $0.superNumber) }, uniquingKeysWith: { first, _ in first })
        guard let target = layout.entity(named: entity)?.number else { return [] }
        return layout.entities.filter { slot in
            guard !slot.isAbstract else { return false }
            var current = slot.number
            var steps = 0
            while current != 0, steps <= layout.entities.count {
                if current == target { return true }
                current = parentOf[current] ?? 0
                steps += 1
            }
            return false
        }.map(\.name)
    }

    private func writeEntityRows(_ db: Database, model: ObjectModel, layout: StoreLayout) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        guard rowsPerEntity > 0 else {
            for slot in layout.entities where !slot.isAbstract { counts[slot.name] = 0 }
            return counts
        }
        let blocks = blocks(layout)
        let entities = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let numbers = Dictionary(layout.entities.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
        let parents = Dictionary(layout.entities.map { ($0.number, $0.superNumber) }, uniquingKeysWith: { first, _ in first })
        let names = Dictionary(layout.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        var subtrees: [String: [Block]] = [:]
        var random = SplitMix64(seed: seed)

        for table in layout.tables {
            let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
            let statement = try RawStatement(db,
                sql: "INSERT INTO \(StoreReader.quote(table.name)) (\(table.columns.map { StoreReader.quote($0.name) }.joined(separator: ", "))) VALUES (\(placeholders))")
            for member in table.entities {
                guard let block = blocks[member] else { continue }
                // The entity and its ancestors own the columns this row fills.
                var lineage: Set<String> = []
                var current = numbers[member] ?? 0
                while current != 0, lineage.count <= layout.entities.count, let name = names[current] {
                    lineage.insert(name)
                    current = parents[current] ?? 0
                }
                let unique = uniqueAttributes(lineage, entities)
                let plans = table.columns.map { column in
                    plan(column, lineage: lineage, unique: unique, entities: entities, layout: layout, blocks: blocks, subtrees: &subtrees)
                }
                for row in 0..<rowsPerEntity {
                    let key = block.firstKey + row
                    var chosen: [String: Block] = [:]
                    for (index, plan) in plans.enumerated() {
                        statement.bind(index + 1, value(plan, key: key, row: row, entityNumber: block.number, chosen: &chosen, random: &random))
                    }
                    try statement.run()
                }
                counts[member] = rowsPerEntity
            }
        }
        return counts
    }

    /// Attribute names (per entity) that take part in a uniqueness constraint.
    private func uniqueAttributes(_ lineage: Set<String>, _ entities: [String: Entity]) -> Set<String> {
        var result: Set<String> = []
        for name in lineage {
            for constraint in entities[name]?.uniquenessConstraints ?? [] { result.formUnion(constraint) }
        }
        return result
    }

    /// How to fill one column for one entity's rows.
    private enum ColumnPlan {
        case null
        case primaryKey
        case entityNumber
        case one
        case attribute(name: String, entity: String, type: AttributeType, optional: Bool, unique: Bool)
        /// A to-one key into one of the destination's concrete blocks; `sameRow` for one-to-one.
        case foreignKey(relationship: String, destinations: [Block], optional: Bool, sameRow: Bool)
        /// The `Z_ENT` of the block chosen for `relationship` in the same row.
        case foreignEntity(relationship: String)
        case position
    }

    private func plan(
        _ column: StoreLayout.Column, lineage: Set<String>, unique: Set<String>, entities: [String: Entity],
        layout: StoreLayout, blocks: [String: Block], subtrees: inout [String: [Block]]
    ) -> ColumnPlan {
        switch column.role {
        case .primaryKey:
            return .primaryKey
        case .entityNumber:
            return .entityNumber
        case .optimisticLock:
            return .one
        case .attribute(let entity, let name, let type):
            guard lineage.contains(entity) else { return .null }
            let attribute = entities[entity]?.attributes.first { $0.name == name }
            return .attribute(name: name, entity: entity, type: type, optional: attribute?.isOptional ?? true,
                              unique: unique.contains(name))
        case .toOne(let entity, let relationship, let destination):
            guard lineage.contains(entity) else { return .null }
            if subtrees[destination] == nil {
                subtrees[destination] = concreteSubtree(destination, layout).compactMap { blocks[$0] }
            }
            let link = entities[entity]?.relationships.first { $0.name == relationship }
            let inverse = link.flatMap { link in
                link.inverseName.flatMap { name in
                    entities[link.inverseEntity ?? destination]?.relationships.first { $0.name == name }
                }
            }
            return .foreignKey(relationship: relationship, destinations: subtrees[destination] ?? [],
                               optional: link?.isOptional ?? true, sameRow: inverse.map { !$0.isToMany } ?? false)
        case .toOneEntity(let entity, let relationship, _):
            guard lineage.contains(entity) else { return .null }
            return .foreignEntity(relationship: relationship)
        case .orderKey(let entity, _):
            return lineage.contains(entity) ? .position : .null
        }
    }

    private func value(
        _ plan: ColumnPlan, key: Int, row: Int, entityNumber: Int, chosen: inout [String: Block],
        random: inout SplitMix64
    ) -> FixtureValue {
        switch plan {
        case .null:
            return .null
        case .primaryKey:
            return .integer(key)
        case .entityNumber:
            return .integer(entityNumber)
        case .one:
            return .integer(1)
        case .position:
            return .integer(row + 1)
        case .foreignKey(let relationship, let destinations, let optional, let sameRow):
            guard !destinations.isEmpty, !(optional && row % 10 == 9) else { return .null }
            let block = destinations[Int(random.next() % UInt64(destinations.count))]
            chosen[relationship] = block
            let index = sameRow ? row : Int(random.next() % UInt64(rowsPerEntity))
            return .integer(block.firstKey + index)
        case .foreignEntity(let relationship):
            return chosen[relationship].map { .integer($0.number) } ?? .null
        case .attribute(let name, let entity, let type, let optional, let unique):
            if optional && !unique && row % 10 == 9 { return .null }
            return attributeValue(name: name, entity: entity, type: type, key: key, unique: unique, random: &random)
        }
    }

    private func attributeValue(
        name: String, entity: String, type: AttributeType, key: Int, unique: Bool, random: inout SplitMix64
    ) -> FixtureValue {
        switch type {
        case .integer16:
            return .integer(unique ? key : Int(random.next() % 1000))
        case .integer32:
            return .integer(unique ? key : Int(random.next() % 100_000))
        case .integer64:
            return .integer(unique ? key : Int(random.next() % 10_000_000))
        case .boolean:
            return .integer(unique ? key : Int(random.next() % 2))
        case .double, .float, .decimal:
            return .real((unique ? Double(key) : Double(random.next() % 1_000_000)) / 100)
        case .date:
            return .real(600_000_000 + (unique ? Double(key) : Double(random.next() % 126_000_000)))
        case .string:
            return .text(name + " " + String(key))
        case .uri:
            return .text("https://example.com/" + entity.lowercased() + "/" + String(key))
        case .binary, .uuid:
            let high = random.next()
            var low = random.next()
            if unique { low = UInt64(key) }
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in 0..<8 {
                bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
                bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
            }
            if type == .uuid {
                bytes[6] = (bytes[6] & 0x0F) | 0x40
                bytes[8] = (bytes[8] & 0x3F) | 0x80
            }
            return .blob(bytes)
        case .transformable, .undefined, .objectID, .composite, .other:
            return .null
        }
    }

    private func writeJoinRows(_ db: Database, layout: StoreLayout) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let blocks = blocks(layout)
        var random = SplitMix64(seed: seed ^ 0x4A4F_494E)
        for join in layout.joinTables {
            let firstBlocks = concreteSubtree(join.first.entity, layout).compactMap { blocks[$0] }
            let secondBlocks = concreteSubtree(join.second.entity, layout).compactMap { blocks[$0] }
            guard let from = firstBlocks.first, let to = secondBlocks.first, rowsPerEntity > 0 else {
                counts[join.name] = 0
                continue
            }
            var columns = [join.first.column, join.second.column]
            let orderColumns = [join.first.orderColumn, join.second.orderColumn]
            columns += orderColumns.compactMap { $0 }
            let statement = try RawStatement(db,
                sql: "INSERT INTO \(StoreReader.quote(join.name)) (\(columns.map(StoreReader.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
            let links = min(2, rowsPerEntity)
            var written = 0
            for row in 0..<rowsPerEntity {
                let firstTarget = Int(random.next() % UInt64(rowsPerEntity))
                for link in 0..<links {
                    let target = link == 0 ? firstTarget : (firstTarget + 1 + Int(random.next() % UInt64(max(1, rowsPerEntity - 1)))) % rowsPerEntity
                    var values: [FixtureValue] = [.integer(from.firstKey + row), .integer(to.firstKey + target)]
                    if orderColumns[0] != nil { values.append(.integer(row + 1)) }
                    if orderColumns[1] != nil { values.append(.integer(link + 1)) }
                    for (index, value) in values.enumerated() { statement.bind(index + 1, value) }
                    try statement.run()
                    written += 1
                }
            }
            counts[join.name] = written
        }
        return counts
    }
}

/// One value bound into a fixture row.
enum FixtureValue {
    case null
    case integer(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared INSERT driven through SQLite's C API: GRDB's `StatementArguments` costs more
/// than the insert itself for millions of rows. Used only inside a GRDB-managed transaction
/// on GRDB's connection, on its thread.
final class RawStatement {
    private var handle: OpaquePointer?
    private let connection: OpaquePointer?

    init(_ db: Database, sql: String) throws {
        connection = db.sqliteConnection
        guard sqlite3_prepare_v2(connection, sql, -1, &handle, nil) == SQLITE_OK, handle != nil else {
            throw FixtureWriteError(String(cString: sqlite3_errmsg(connection)))
        }
    }

    deinit { sqlite3_finalize(handle) }

    /// The first binding error since the last `run()`, reported by `run()`.
    private var bindError: Int32 = SQLITE_OK

    func bind(_ index: Int, _ value: FixtureValue) {
        let position = Int32(index)
        let result: Int32
        switch value {
        case .null:
            result = sqlite3_bind_null(handle, position)
        case .integer(let number):
            result = sqlite3_bind_int64(handle, position, sqlite3_int64(number))
        case .real(let number):
            result = sqlite3_bind_double(handle, position, number)
        case .text(let text):
            result = text.withCString { sqlite3_bind_text(handle, position, $0, -1, Self.transient) }
        case .blob(let bytes):
            result = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, position, $0.baseAddress, Int32($0.count), Self.transient) }
        }
        if result != SQLITE_OK && bindError == SQLITE_OK { bindError = result }
    }

    /// Executes with the current bindings, then resets for the next row.
    func run() throws {
        guard bindError == SQLITE_OK else {
            throw FixtureWriteError("cannot bind a value: \(String(cString: sqlite3_errstr(bindError)))")
        }
        let result = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard result == SQLITE_DONE else { throw FixtureWriteError(String(cString: sqlite3_errmsg(connection))) }
    }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A small, fast, seedable generator (Steele, Lea, Flood 2014).
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
