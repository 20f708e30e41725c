import Foundation

/// State shared between threads: every read and write goes through ``withLock(_:)``.
///
/// The project's one lock-guarded box, so that the classes holding shared state keep only
/// `let` properties and the compiler checks them `Sendable`.
package final class Locked<State: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is touched only inside `withLock`, while `lock` is held.
    private var state: State
    private let lock = NSLock()

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` on the state while holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
