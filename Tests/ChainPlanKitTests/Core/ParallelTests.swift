import Dispatch
import Foundation
import Testing
@testable import ChainPlanCore

/// `Parallel`: results in input order; `both` really runs its two pieces at once (each waits for
/// the other here, which one thread after the other could never satisfy), and work that itself
/// uses `map` inside `both` gets its results in order too.
struct ParallelTests {
    @Test func mapKeepsInputOrder() {
        let items = Array(0..<1_000)
        #expect(Parallel.map(items) { $0 * 2 } == items.map { $0 * 2 })
        #expect(Parallel.map([7]) { $0 + 1 } == [8])
        #expect(Parallel.map([Int]()) { $0 } == [])
    }

    @Test func bothRunsAtOnce() {
        let firstStarted = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        let (a, b) = Parallel.both({ () -> Bool in
            firstStarted.signal()
            return secondStarted.wait(timeout: .now() + 30) == .success
        }, { () -> Bool in
            secondStarted.signal()
            return firstStarted.wait(timeout: .now() + 30) == .success
        })
        #expect(a && b)
    }

    @Test func mapInsideBoth() {
        let items = Array(0..<500)
        let (a, b) = Parallel.both({ Parallel.map(items) { $0 + 1 } }, { Parallel.map(items) { $0 - 1 } })
        #expect(a == items.map { $0 + 1 })
        #expect(b == items.map { $0 - 1 })
    }
}
