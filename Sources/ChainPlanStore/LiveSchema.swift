import GRDB

/// The schema of the scratch copy as it is now: tables with their columns, `Z_PRIMARYKEY`,
/// and explicit indexes. Read again before every simulated step, so a step works on what the
/// previous one left, not on a prediction of it.
struct LiveSchema {
    struct Table {
        var name: String
        var columns: [String]
    }

    /// Tables by upper-cased name (SQLite names are case-insensitive).
    var tables: [String: Table] = [:]
    /// `Z_PRIMARYKEY`: entity name → `Z_ENT`, and entity name → `Z_MAX`.
    var entityNumbers: [String: Int] = [:]
    var maxKeys: [String: Int] = [:]
    /// Explicit indexes (with SQL; not SQLite's automatic ones): upper-cased name → table.
    var indexes: [String: (name: String, table: String)] = [:]

    /// `aliases`: the model's old entity names (`EntityAliases.of`); `Z_PRIMARYKEY` names are
    /// read through them, so an entity the store still lists under its renaming identifier is
    /// found under the model's name.
    static func read(_ db: Database, maxObjects: Int, aliases: [String: String] = [:]) throws -> LiveSchema {
        var schema = LiveSchema()
        let objects = try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name FROM sqlite_master
            WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' LIMIT ?
            """, arguments: [maxObjects])
        for object in objects {
            let type: String = object["type"]
            let name: String = object["name"]
            if type == "table" {
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name])
                schema.tables[name.uppercased()] = Table(name: name, columns: columns)
            } else {
                schema.indexes[name.uppercased()] = (name, object["tbl_name"])
            }
        }
        let keys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 LIMIT ?",
                                    arguments: [maxObjects])
        let applicable = EntityAliases.applicable(aliases, present: Set(keys.compactMap { $0["Z_NAME"] as String? }))
        for key in keys {
            guard let stored = key["Z_NAME"] as String?, let number = key["Z_ENT"] as Int? else { continue }
            let name = EntityAliases.resolve(stored, applicable)
            schema.entityNumbers[name] = number
            schema.maxKeys[name] = key["Z_MAX"] as Int? ?? 0
        }
        return schema
    }

    /// The live table a predicted name stands for: the same name, else the one table whose name
    /// differs only in a trailing collision number (Core Data's suffixes are not predictable).
    func table(_ predicted: String) -> Table? {
        if let exact = tables[predicted.uppercased()] { return exact }
        let base = Self.withoutSuffix(predicted)
        let candidates = tables.values.filter { Self.withoutSuffix($0.name) == base }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// The live column a predicted name stands for, by the same rule as `table(_:)`.
    static func column(_ predicted: String, in columns: [String]) -> String? {
        let upper = predicted.uppercased()
        if let exact = columns.first(where: { $0.uppercased() == upper }) { return exact }
        let base = withoutSuffix(predicted)
        let candidates = columns.filter { withoutSuffix($0) == base }
        return candidates.count == 1 ? candidates[0] : nil
    }

    static func withoutSuffix(_ name: String) -> String {
        String(name.uppercased().reversed().drop(while: \.isNumber).reversed())
    }
}
