import ChainPlanInference
import GRDB

extension LiveSchema {
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
}
