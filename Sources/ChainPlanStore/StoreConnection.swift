import ChainPlanReaders
import GRDB

extension GRDB.Configuration {
    /// A connection named `label` (SQLite's own messages carry it) that runs `pragmas`, in order,
    /// every time it opens: the read-only hardening of a scratch copy, or the fast unsafe
    /// settings of a fixture being written.
    static func chainplan(label: String, pragmas: [String]) -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.label = label
        configuration.prepareDatabase { db in
            for pragma in pragmas { try db.execute(sql: "PRAGMA " + pragma) }
        }
        return configuration
    }
}
