import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// The planner follows each path through its steps' work reduced to the tables that move pending
/// columns (`DeferredChain.movingTables`, once per step): every start's deferred chain equals
/// following the full work of its steps, option on and off.
@Suite struct DeferredChainMovingTablesTests {
    static let root = SharedCorpus.packageRoot

    static func check(_ url: URL) -> Int {
        var followed = 0
        for deferring in [true, false] {
            var options = PlanOptions()
            options.deferredLightweightMigration = deferring
            let report = ChainPlanner(options: options).plan(inputAt: url, configuration: nil)
            var work: [StepKey: SQLiteWork] = [:]
            for step in report.steps { work[StepKey(from: step.from, to: step.to)] = step.sqlite }
            for path in report.paths {
                let start = path.start
                guard let steps = path.steps, !steps.isEmpty else { continue }
                let full = DeferredChain.follow(start: start, steps: steps.map { ($0.from, $0.to, work[StepKey(from: $0.from, to: $0.to)]) })
                #expect((full.isEmpty ? nil : full) == path.deferral, "\(url.lastPathComponent) from \(start), deferring \(deferring)")
                followed += 1
            }
        }
        return followed
    }

    @Test(arguments: ["Chains/aircraft-staged/chain.json", "Chains/grocery-dude/chain.json", "Chains/notas/chain.json"])
    func equalsFollowingEveryTable(_ spec: String) {
        #expect(Self.check(Self.root.appendingPathComponent(spec)) > 0)
    }
}

extension CorpusTests {
    /// `DeferredChainMovingTablesTests` on a long history, where pending columns pile up, vanish
    /// and stay over 116 steps.
    @Suite struct DeferredChainMovingTablesCorpusTests {
        @Test func wooCommerce() {
            let url = SharedCorpus.corpus.appendingPathComponent("woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld")
            #expect(DeferredChainMovingTablesTests.check(url) > 200)
        }
    }
}
