/// What `dry-run --deferred` measured on scratch copies (reference §7.3): the path run with the
/// option (columns renamed instead of rebuilding), then `finishDeferredLightweightMigration()`
/// simulated — one task per root table of the final model with `_DEFERRED_` columns, each a
/// full copy of the table — next to the same steps run without the option on a second copy.
///
/// Times are wall-clock and not deterministic: output only, never compared by tests.
public struct DeferredFinishSimulation: Sendable, Hashable, Codable {
    /// One finish task: the table renamed `_DEFERRED_TEMP__<table>`, created from the model,
    /// its rows copied back, the copy dropped and the table's indexes recreated.
    public struct Task: Sendable, Hashable, Codable {
        public var table: String
        /// The `_DEFERRED_` columns the task removes.
        public var columns: [String]
        public var rows: Int
        public var seconds: Double

        /// A task that took `elapsed`.
        package init(table: String, columns: [String], rows: Int, elapsed: Duration) {
            self.table = table
            self.columns = columns
            self.rows = rows
            seconds = elapsed.seconds
        }
    }

    /// One step of the path, with and without the option.
    public struct Step: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        /// Time of the step with the option (renames instead of rebuilds).
        public var deferredSeconds: Double?
        /// Rows the step copied with the option (tables rebuilt for other causes).
        public var deferredRowsCopied: Int?
        /// The same step without the option.
        public var withoutDeferralSeconds: Double?
        public var withoutDeferralRowsCopied: Int?

        /// The step `from → to` as simulated with the option and without it (nil: not simulated).
        package init(from: String, to: String, deferred: StepSimulation?, withoutDeferral: StepSimulation?) {
            self.from = from
            self.to = to
            deferredSeconds = deferred?.seconds
            deferredRowsCopied = deferred?.rowsCopied
            withoutDeferralSeconds = withoutDeferral?.seconds
            withoutDeferralRowsCopied = withoutDeferral?.rowsCopied
        }
    }

    public var steps: [Step] = []
    /// Finish tasks, in table order (empty: nothing was pending after the path).
    public var tasks: [Task] = []
    /// `_DEFERRED_` columns left after finishing in tables the final model does not have
    /// (finishing copies the model's root tables only).
    public var leftOver: [String] = []
    /// Set when the simulated finish failed: SQLite's reason.
    public var failure: String?

    /// Nothing measured yet: the finisher adds the tasks, the dry run the compared steps.
    package init() {}

    /// Rows the finish copied, all tasks.
    public var rowsCopied: Int { tasks.reduce(0) { $0 + $1.rows } }
    /// Time of the finish, all tasks.
    public var seconds: Double { tasks.reduce(0) { $0 + $1.seconds } }
}
