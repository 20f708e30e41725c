import Foundation

/// Planned destination tables of SQLite work, shared by the steps of one chain that plan
/// tables from equal inputs: a long history's direct jumps all end at the last version, and
/// most of their tables are planned from equal source tables. A table's row is kept under
/// everything its plan reads from the source side (`InPlaceTablePlanKey`) and the deferral
/// option; a memo serves the steps to one destination model. So a hit gives exactly the row
/// planning would give. Safe to share between threads.
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
    private let lock = NSLock()
    /// The destination model of the steps served: the first one asked about.
    private var destination: ObjectModel?

    /// Whether this memo serves a step to `model`: its keys leave the destination side out, so
    /// it serves the steps to the model it first served only. (A chain passes the same stored
    /// model each time, which compares equal without reading it.)
    func serves(_ model: ObjectModel) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let destination { return destination == model }
        destination = model
        return true
    }

    func row(for key: Key, plan: () -> Planned) -> Planned {
        planned.value(for: key, plan)
    }
}
