import ChainPlanInference
/// Deferred work across the steps a start version's store goes through (reference §7.3):
/// columns that pile up over several deferring steps, later steps whose rebuild (or mapping-model
/// copy) makes them vanish while the store's metadata key stays set, and the finish work left at
/// the end — one task per root table, each a full copy of the table.
///
/// Examples (the tests run them): two steps that each remove an attribute of `Note` leave
/// `ZNOTE` with both columns pending and one finish task; a third step that removes a to-one of
/// `Note` rebuilds `ZNOTE`, the pending columns vanish, and the metadata key stays set with
/// nothing to finish (`staleKey`).
public struct DeferredChain: Sendable, Hashable, Codable {
    /// A column renamed by a step and still pending at the end.
    public struct PendingColumn: Sendable, Hashable, Codable {
        public var column: String
        public var cause: DeferredCause
        /// The step that deferred it, `From → To`.
        public var step: String
    }

    /// A table with pending work after the last step: one finish task, a full copy of the table.
    public struct FinishTask: Sendable, Hashable, Codable {
        public var table: String
        public var entity: String?
        public var columns: [PendingColumn]
    }

    /// Pending columns that a later step made vanish by rebuilding (or dropping) their table.
    public struct Vanished: Sendable, Hashable, Codable {
        public var table: String
        public var columns: [PendingColumn]
        /// The step that rebuilt or dropped the table, `From → To`.
        public var step: String
        /// `rebuilt`, `dropped`, or `mapping-model` (copied into a new store).
        public var by: String
    }

    public var start: String
    /// Finish work left after the last step, in table order.
    public var finishTasks: [FinishTask]
    public var vanished: [Vanished]
    /// The metadata key `NSPersistentStoreDeferredLightweightMigrationOptionKey` is set (some step
    /// deferred) but nothing is left to finish: finishing succeeds and never clears it [inferred].
    public var staleKey: Bool

    /// Follows `steps` (each `(from, to, work)`, in order) from `start`.
    public static func follow(start: String, steps: [(from: String, to: String, work: SQLiteWork?)]) -> DeferredChain {
        var pending: [(table: String, key: String, entity: String?, columns: [PendingColumn])] = []  // key: the table upper-cased
        var vanished: [Vanished] = []
        var keySet = false
        for step in steps {
            guard let work = step.work else { continue }
            let name = "\(step.from) → \(step.to)"
            if work.path == .mappingModel {
                // Every object is copied into a new store built from the model: pending columns
                // vanish; the source metadata (and so the key) is carried over [inferred].
                for entry in pending where !entry.columns.isEmpty {
                    vanished.append(Vanished(table: entry.table, columns: entry.columns, step: name, by: "mapping-model"))
                }
                pending.removeAll()
                continue
            }
            for table in work.tables {
                // Unchanged and altered tables touch nothing pending: no key built for them.
                let key = table.work == .unchanged || table.work == .altered ? "" : table.table.uppercased()
                switch table.work {
                case .deferred:
                    keySet = true
                    let added = table.columns.map { PendingColumn(column: $0.column, cause: $0.cause, step: name) }
                    if let index = pending.firstIndex(where: { $0.key == key }) {
                        pending[index].columns += added
                    } else {
                        pending.append((table.table, key, table.entity, added))
                    }
                case .rebuilt, .dropped, .created:
                    guard let index = pending.firstIndex(where: { $0.key == key }) else { break }
                    vanished.append(Vanished(table: pending[index].table, columns: pending[index].columns, step: name, by: table.work.rawValue))
                    pending.remove(at: index)
                case .unchanged, .altered:
                    break
                }
            }
        }
        let tasks = pending.filter { !$0.columns.isEmpty }.map { FinishTask(table: $0.table, entity: $0.entity, columns: $0.columns) }
        return DeferredChain(start: start, finishTasks: tasks, vanished: vanished, staleKey: keySet && tasks.isEmpty)
    }

    /// `work` with only the tables `follow` reads (deferred, rebuilt, dropped, created), in their
    /// order: a chain's step is followed once per start version whose path takes it, so the
    /// unchanged and altered tables of a long history are dropped once per step, not per path.
    static func movingTables(of work: SQLiteWork) -> SQLiteWork {
        var kept = work
        kept.tables = work.tables.filter { $0.work != .unchanged && $0.work != .altered }
        return kept
    }

    /// True when there is something to say: finish work, vanished columns, or a stale key.
    public var isEmpty: Bool { finishTasks.isEmpty && vanished.isEmpty && !staleKey }

    /// One line for this start, e.g. `V1: 1 finish task (ZNOTE: ZBODY, ZTITLE)`.
    public var summary: String {
        var parts: [String] = []
        if !finishTasks.isEmpty {
            parts.append("\(finishTasks.count) finish \(finishTasks.count == 1 ? "task" : "tasks") ("
                + finishTasks.map { "\($0.table): " + $0.columns.map(\.column).joined(separator: ", ") }.joined(separator: "; ") + ")")
        }
        for lost in vanished {
            parts.append("pending \(lost.columns.map(\.column).joined(separator: ", ")) of \(lost.table) vanish when '\(lost.step)' "
                + (lost.by == "mapping-model" ? "copies the store with a mapping model" : "\(lost.by == "dropped" ? "drops" : "rebuilds") the table"))
        }
        if staleKey { parts.append("the metadata key stays set with nothing to finish") }
        return "\(start): " + parts.joined(separator: "; ")
    }
}
