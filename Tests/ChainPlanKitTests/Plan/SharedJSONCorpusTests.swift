import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanCore
@testable import ChainPlanKit
@testable import ChainPlanPlanning

extension CorpusTests {
    /// The JSON of every corpus bundle's plan with deferred lightweight migration (every step's
    /// and every direct jump's SQLite work, whose rows `JSONFragments` encodes once each) is
    /// byte for byte the JSON of encoding every row where it occurs.
    @Suite struct SharedJSONCorpusTests {
        @Test func sharedRowsEncodeLikePlainRows() throws {
            var options = PlanOptions()
            options.deferredLightweightMigration = true
            let planner = ChainPlanner(options: options)
            var compared = 0
            var jumpRows = 0
            for path in SQLiteWorkMemoCorpusTests.bundles() {
                let report = planner.plan(inputAt: SharedCorpus.corpus.appendingPathComponent(path))
                jumpRows += report.paths.compactMap { $0.direct?.sqlite?.tables.count }.reduce(0, +)
                let shared = CanonicalJSON.encode(report)
                let plain = CanonicalJSON.encode(report, sharing: false)
                #expect(shared == plain, "\(path)")
                compared += 1
            }
            #expect(compared > 10)
            #expect(jumpRows > 1_000)
        }
    }
}
