/// The Swift that finishes a deferred lightweight migration (reference §7.3), added to the code
/// `stage --format swift` writes when deferral is chosen (`--deferred`, or
/// `deferredLightweightMigration: true`):
///
/// - the store description sets `NSPersistentStoreDeferredLightweightMigrationOptionKey`;
/// - `DeferredMigration.state` reads the metadata key, then the schema: with the key set and no
///   table whose SQL holds `_DEFERRED_`, the key is stale (a later migration rebuilt the tables,
///   and finishing never clears it) and the work counts as done;
/// - `DeferredMigration.finish` runs `finishDeferredLightweightMigrationTask()` once per
///   pending table, stopping between tables when asked to (a background task's expiration);
///   errors are thrown and reported, nothing is deleted;
/// - `DeferredMigration.register`/`schedule` run it from a `BGProcessingTask` (BackgroundTasks:
///   iOS, tvOS, visionOS, Mac Catalyst; compiled out elsewhere).
enum DeferredFinishSwift {
    static let imports = """
        import SQLite3
        #if canImport(BackgroundTasks)
        import BackgroundTasks
        #endif

        """

    /// The option line of the store description.
    static let option = """
                // Deferred lightweight migration: removed columns are renamed now and their tables
                // copied later, by DeferredMigration.finish (core-data-internals §7.2).
                description.setOption(NSNumber(value: true), forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey)

        """

    static let finishRoutine = """
            /// Finishing a deferred lightweight migration. The store's metadata keeps
            /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` set until the last table is
            /// finished, but a later migration that rebuilds the tables leaves it set with nothing
            /// to finish (finishing then succeeds and never clears it): the schema decides.
            enum DeferredMigration {
                enum State: Equatable {
                    /// No key: nothing was deferred, or everything was finished.
                    case done
                    /// The key is set and this many tables hold `_DEFERRED_` columns.
                    case pending(tables: Int)
                    /// The key is set and no table holds a `_DEFERRED_` column: nothing to finish.
                    case staleKey
                }

                enum Failure: Error, CustomStringConvertible {
                    /// The store is not loaded in the coordinator.
                    case notLoaded(URL)
                    /// Tables still hold `_DEFERRED_` columns after one task per table.
                    case unfinished(tables: Int)
                    /// The task identifier could not be registered (not in `BGTaskSchedulerPermittedIdentifiers`?).
                    case notRegistered(String)

                    var description: String {
                        switch self {
                        case .notLoaded(let url):
                            return "deferred migration: the store at \\(url.path) is not loaded"
                        case .unfinished(let tables):
                            return "deferred migration: \\(tables) table(s) still hold _DEFERRED_ columns after finishing; the store is kept as it is"
                        case .notRegistered(let identifier):
                            return "deferred migration: the background task '\\(identifier)' could not be registered"
                        }
                    }
                }

                /// The metadata key, then the schema.
                static func state(of coordinator: NSPersistentStoreCoordinator, storeAt url: URL) throws -> State {
                    guard let store = coordinator.persistentStore(for: url) else { throw Failure.notLoaded(url) }
                    let key = coordinator.metadata(for: store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? NSNumber
                    guard key?.boolValue == true else { return .done }
                    let tables = deferredTables(storeAt: url)
                    return tables == 0 ? .staleKey : .pending(tables: tables)
                }

                /// Tables whose SQL holds `_DEFERRED_`, read with a read-only connection; when the
                /// schema cannot be read, 1 (finishing a store with nothing pending does no harm).
                static func deferredTables(storeAt url: URL) -> Int {
                    var db: OpaquePointer?
                    defer { _ = sqlite3_close(db) }
                    guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return 1 }
                    var statement: OpaquePointer?
                    defer { _ = sqlite3_finalize(statement) }
                    let sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND instr(sql, '_DEFERRED_') > 0"
                    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW else { return 1 }
                    return Int(sqlite3_column_int(statement, 0))
                }

                /// Finishes the pending tables one task at a time; `shouldStop` is asked between
                /// tables. Returns the state afterwards. Errors are thrown: the store is never deleted.
                @discardableResult
                static func finish(_ coordinator: NSPersistentStoreCoordinator, storeAt url: URL, shouldStop: () -> Bool = { false }) throws -> State {
                    let before = try state(of: coordinator, storeAt: url)
                    guard case .pending(let tables) = before else { return before }
                    for _ in 0..<tables {
                        if shouldStop() { break }
                        try coordinator.finishDeferredLightweightMigrationTask()
                    }
                    let after = try state(of: coordinator, storeAt: url)
                    if case .pending(let left) = after, !shouldStop() { throw Failure.unfinished(tables: left) }
                    return after
                }

                #if canImport(BackgroundTasks)
                /// Registers the background processing task that finishes the work; call before the
                /// app finishes launching, with `identifier` listed under
                /// `BGTaskSchedulerPermittedIdentifiers` (and `processing` in `UIBackgroundModes`).
                /// `report` receives every error; nothing is deleted.
                static func register(identifier: String, container: NSPersistentContainer, storeAt url: URL,
                                     report: @escaping (Error) -> Void) {
                    let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                        guard let task = task as? BGProcessingTask else {
                            task.setTaskCompleted(success: false)
                            return
                        }
                        let expired = Flag()
                        task.expirationHandler = { expired.set() }
                        do {
                            let state = try finish(container.persistentStoreCoordinator, storeAt: url, shouldStop: { expired.isSet })
                            var finished = true
                            if case .pending = state {
                                finished = false
                                schedule(identifier: identifier, report: report)
                            }
                            task.setTaskCompleted(success: finished)
                        } catch {
                            report(error)
                            task.setTaskCompleted(success: false)
                        }
                    }
                    if !registered { report(Failure.notRegistered(identifier)) }
                }

                /// Asks for the task when there is work: on power, no network needed.
                static func schedule(identifier: String, report: (Error) -> Void) {
                    let request = BGProcessingTaskRequest(identifier: identifier)
                    request.requiresExternalPower = true
                    request.requiresNetworkConnectivity = false
                    do { try BGTaskScheduler.shared.submit(request) } catch { report(error) }
                }

                /// Schedules the task after the store is loaded, when its state says work is pending.
                static func scheduleIfPending(container: NSPersistentContainer, storeAt url: URL, identifier: String, report: (Error) -> Void) {
                    do {
                        if case .pending = try state(of: container.persistentStoreCoordinator, storeAt: url) {
                            schedule(identifier: identifier, report: report)
                        }
                    } catch {
                        report(error)
                    }
                }
                #endif

                /// Set once from the expiration handler, read by the finishing loop
                /// (`@unchecked`: `value` is read and written only while `lock` is held).
                final class Flag: @unchecked Sendable {
                    private let lock = NSLock()
                    private var value = false
                    func set() { lock.lock(); value = true; lock.unlock() }
                    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
                }
            }


        """
}
