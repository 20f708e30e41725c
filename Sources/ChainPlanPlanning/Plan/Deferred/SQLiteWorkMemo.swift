import Foundation

/// Planned destination tables of SQLite work, shared by the steps of one chain that plan
/// tables from equal inputs: a long history's direct jumps all end at the last version, and
/// most of their tables are planned from equal source tables. A table's row is kept under
/// everything its plan reads (`InPlaceTablePlanKey`) and the deferral option, so a hit gives
/// exactly the row planning would give. Safe to share between threads.
///
/// Example (the tests run it): jumps to Note(title, folder) from two versions with equal Note
/// and Folder tables plan each table once; the second jump's rows are hits and the same.
final class SQLiteWorkMemo: @unchecked Sendable {
    struct Key: Hashable {
        var plan: InPlaceTablePlanKey
        var deferring: Bool
    }

    struct Planned {
        var row: SQLiteWork.Table
        /// Upper-cased names of the source tables that feed the table.
        var feeding: [String]
    }

    private let planned = LockedCache<Key, Planned>()
    var hits: Int { planned.hits }

    func row(for key: Key, plan: () -> Planned) -> Planned {
        planned.value(for: key, plan)
    }
}
