import Dispatch
import Foundation

/// Work spread over every core, with results in input order so output stays deterministic.
package enum Parallel {
    /// `transform` applied to every element of `items`; the i-th result is `transform(items[i])`.
    package static func map<Item: Sendable, Result: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Result) -> [Result] {
        guard items.count > 1 else { return items.map(transform) }
        let results = OrderedResults<Result>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            results.set(index, transform(items[index]))
        }
        return results.values
    }

    /// Runs two independent pieces of work at the same time and returns both results: `second`
    /// on a thread of its own, `first` on the calling one.
    ///
    /// Not `concurrentPerform`: work that itself spreads over every core (reading a bundle's
    /// versions with `map`) would then run inside it, and a nested `concurrentPerform` gets no
    /// share of the cores: it ran one version after another on one thread.
    package static func both<First: Sendable, Second: Sendable>(
        _ first: @Sendable () -> First, _ second: @escaping @Sendable () -> Second
    ) -> (First, Second) {
        let slot = OrderedResults<Second>(count: 1)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            slot.set(0, second())
            done.signal()
        }
        thread.start()
        let a = first()
        done.wait()
        return (a, slot.values[0])
    }
}

/// Slots written once each from concurrent iterations, read after all of them finished.
private final class OrderedResults<Result: Sendable>: Sendable {
    private let slots: Locked<[Result?]>

    init(count: Int) { slots = Locked(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: Result) {
        slots.withLock { $0[index] = value }
    }

    var values: [Result] {
        slots.withLock { $0.map { $0! } }
    }
}
