import Foundation

/// Values made once per key and shared between threads (memos of work that many parallel
/// tasks repeat). A value is made outside the lock: two threads asking for the same new key
/// may both make it, and the value is the same either way (callers key exactly what the value
/// depends on).
///
/// Example (the tests run it): `value(for: 1) { "a" }` makes "a"; `value(for: 1) { "b" }` then
/// gives "a" and counts a hit.
package final class LockedCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    /// How many look-ups found their value made.
    package private(set) var hits = 0

    package init() {}

    /// The value kept for `key`, or the one `make` gives, kept.
    package func value(for key: Key, _ make: () -> Value) -> Value {
        lock.lock()
        if let found = values[key] {
            hits += 1
            lock.unlock()
            return found
        }
        lock.unlock()
        let made = make()
        lock.lock()
        values[key] = made
        lock.unlock()
        return made
    }
}
