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

    /// Runs two independent pieces of work at the same time and returns both results.
    package static func both<First: Sendable, Second: Sendable>(
        _ first: @Sendable () -> First, _ second: @Sendable () -> Second
    ) -> (First, Second) {
        let results = OrderedResults<Either<First, Second>>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.set(index, index == 0 ? .first(first()) : .second(second()))
        }
        guard case .first(let a) = results.values[0], case .second(let b) = results.values[1] else {
            preconditionFailure("each slot holds its own result")
        }
        return (a, b)
    }

    private enum Either<First: Sendable, Second: Sendable>: Sendable {
        case first(First)
        case second(Second)
    }
}

/// Slots written once each from concurrent iterations, read after all of them finished.
private final class OrderedResults<Result: Sendable>: @unchecked Sendable {
    private var slots: [Result?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Result] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
