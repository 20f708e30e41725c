import ChainPlanPlanning
extension SQLiteWork {
    /// Which of Core Data's two migration paths runs an inferred step, for plain Core Data and
    /// for CoreStore (core-data-internals §5; CoreStore's `startMigrationForStorage`, core-data.md
    /// §1.7). Empty for a mapping-model step: `textLines` already says it runs in memory.
    ///
    /// The in-place path depends on a process-wide switch whose default the reference could not
    /// read (on is inferred from crash logs), so that part is printed as unverified.
    ///
    /// Example (the tests run it): an inferred step prints a `runtime` heading, a `Core Data:`
    /// line naming `NSSQLiteInPlaceMigrationManager` and a `CoreStore:` line naming its in-memory
    /// retry; a step with a mapping model prints nothing.
    package func runtimeLines(indent: String = "  ") -> [String] {
        guard path == .inPlace else { return [] }
        let more = indent + indent
        return [
            "runtime (which migration path runs this inferred step):",
            indent + "Core Data: in place (NSSQLiteInPlaceMigrationManager): SQL on the store's tables, no objects loaded",
            more + "only mandatory values are validated; range, pattern and other rules fail at the next save instead",
            more + "in place only while Core Data's process-wide in-place switch is on: on by default is unverified",
            more + "(inferred from crash logs); off, the inferred mapping would run in memory (unverified); no fallback between the two",
            indent + "CoreStore: the same in-place migration first (the store added with automatic migration and inference);",
            more + "when it fails, again in memory with the inferred mapping: its NSMigrationManager subclass loads and",
            more + "validates every object into a new store, which then replaces the file",
        ]
    }
}
