import ChainPlanCore
/// Deferred lightweight migration work a store already holds (reference §7.3): the pending work
/// is the schema itself, every table with `_DEFERRED_<uuid>__<column>` columns; the metadata
/// key `NSPersistentStoreDeferredLightweightMigrationOptionKey` is set by the migration that
/// deferred and removed only when `finishDeferredLightweightMigration()` finishes the last
/// table. A key with no `_DEFERRED_` column left is stale: a later migration rebuilt the tables,
/// finishing succeeds and never clears it [inferred].
///
/// Examples (the tests run them): `ZNOTE` with `_DEFERRED_<32 hex>__ZBODY` and the key set →
/// one finish task (`ZNOTE`: `ZBODY`); the key set and no such column → `staleKey`; no key and
/// no column → `isEmpty`.
public struct PendingDeferredWork: Sendable, Hashable, Codable {
    /// A renamed column: its name in the store and the column it was (nil when the name does not
    /// have Core Data's `_DEFERRED_<32 hex>__<column>` shape).
    public struct Column: Sendable, Hashable, Codable {
        public var column: String
        /// Always present in JSON, null when the name does not parse.
        @ExplicitNull public var original: String?

        /// The store's column `column`; `original` is parsed from its name.
        package init(column: String) {
            self.column = column
            original = PendingDeferredWork.originalColumn(of: column)
        }
    }

    /// A table with pending work: one finish task, a full copy of the table.
    public struct Table: Sendable, Hashable, Codable {
        public var table: String
        public var rows: Int
        public var columns: [Column]

        public init(table: String, rows: Int, columns: [Column]) {
            self.table = table
            self.rows = rows
            self.columns = columns
        }
    }

    /// The store's metadata sets `NSPersistentStoreDeferredLightweightMigrationOptionKey` (true).
    public var metadataKey: Bool
    /// Tables holding `_DEFERRED_` columns, by name.
    public var tables: [Table]

    public init(metadataKey: Bool, tables: [Table]) {
        self.metadataKey = metadataKey
        self.tables = tables
    }

    /// The metadata key is set but no `_DEFERRED_` column is left: nothing to finish, and
    /// finishing never clears the key.
    public var staleKey: Bool { metadataKey && tables.isEmpty }
    /// `finishDeferredLightweightMigrationTask()` calls needed: one per table.
    public var finishTasks: Int { tables.count }
    /// Neither key nor columns.
    public var isEmpty: Bool { !metadataKey && tables.isEmpty }

    enum CodingKeys: String, CodingKey { case metadataKey, staleKey, finishTasks, tables }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([.metadataKey: metadataKey, .staleKey: staleKey, .finishTasks: finishTasks, .tables: tables])
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        metadataKey = try container.decode(Bool.self, forKey: .metadataKey)
        tables = try container.decode([Table].self, forKey: .tables)
    }

    /// The prefix Core Data gives a deferred column.
    public static let prefix = "_DEFERRED_"

    /// The column a `_DEFERRED_<32 hex digits>__<column>` name stands for; nil for any other
    /// shape (case-insensitive, as SQLite names are).
    public static func originalColumn(of name: String) -> String? {
        let scalars = Array(name.utf8)
        let prefix = Array(Self.prefix.utf8)
        guard scalars.count > prefix.count + 34,
              zip(scalars, prefix).allSatisfy({ Self.upper($0.0) == $0.1 }) else { return nil }
        let hex = scalars[prefix.count ..< prefix.count + 32]
        guard hex.allSatisfy({ (48...57).contains($0) || (65...70).contains(Self.upper($0)) }),
              scalars[prefix.count + 32] == 95, scalars[prefix.count + 33] == 95 else { return nil }
        return String(decoding: scalars[(prefix.count + 34)...], as: UTF8.self)
    }

    private static func upper(_ byte: UInt8) -> UInt8 { (97...122).contains(byte) ? byte - 32 : byte }

    /// One line, e.g. `2 finish tasks (ZNOTE: ZBODY; ZTAG: ZCOLOR)`, `the metadata key is set
    /// with nothing to finish (stale)`, or `none`.
    public var summary: String {
        if tables.isEmpty {
            return metadataKey ? "none pending; NSPersistentStoreDeferredLightweightMigrationOptionKey is set with nothing to finish (stale key: finishing succeeds and never clears it)" : "none"
        }
        let list = tables.map { "\($0.table): " + $0.columns.map { $0.original ?? $0.column }.joined(separator: ", ") }.joined(separator: "; ")
        let key = metadataKey ? "" : "; the metadata key is not set"
        return "\(tables.count) finish \(tables.count == 1 ? "task" : "tasks") (\(list))\(key)"
    }
}
