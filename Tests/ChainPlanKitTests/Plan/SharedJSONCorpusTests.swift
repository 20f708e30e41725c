import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanCore
@testable import ChainPlanKit
@testable import ChainPlanPlanning
@testable import ChainPlanInference

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

        /// Each direct jump's SQLite work in a plan (made on a thread of its own, through the
        /// chain's memo) is the jump analysed alone, and a jump has work exactly when it is
        /// inferred (or, with a mapping model, copies the store). Bundles without mapping models.
        @Test func pendingJumpWorkIsTheJumpAnalysedAlone() throws {
            var options = PlanOptions()
            options.deferredLightweightMigration = true
            let planner = ChainPlanner(options: options)
            var jumps = 0
            for (path, bundle) in SQLiteWorkMemoCorpusTests.loadedBundles() where bundle.versions.count >= 3 {
                let report = planner.plan(inputAt: SharedCorpus.corpus.appendingPathComponent(path))
                guard let target = report.target, let destination = bundle.version(named: target)?.model else { continue }
                let classifier = StepClassifier(bundle: bundle, mappingModels: [:])
                for listed in report.paths where (listed.length ?? 0) >= 2 {
                    let (classification, mapping) = classifier.classify(from: listed.start, to: target)
                    guard let source = bundle.version(named: listed.start)?.model, classification.mappingModel == nil else { continue }
                    let copied = Set(mapping?.entityMappings.filter { $0.kind == .copy && $0.source == $0.destination }.compactMap(\.destination) ?? [])
                    let alone = SQLiteWork.of(classification, source: source, destination: destination, layouts: nil, copied: copied, deferring: true)
                    #expect(listed.direct?.sqlite == alone, "\(path): \(listed.start) → \(target)")
                    jumps += 1
                }
            }
            #expect(jumps > 100)
        }
    }
}
