import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

extension CorpusTests {
    /// The memo of entity comparisons says exactly what comparing says, on every corpus bundle:
    /// every step and every direct jump to the last version, classified through one memo per
    /// destination as a chain shares it (the jumps' memo filled in history order and, in a
    /// second run, in reverse order), against the same pair classified without it. The
    /// classification and the whole inferred mapping (changes with their locations, entity
    /// mappings, lineage, validation checks) must be equal.
    @Suite struct EntityComparisonMemoCorpusTests {
        @Test func memoEqualsComparingOnEveryStepAndJump() throws {
            let loaded = SQLiteWorkMemoCorpusTests.loadedBundles()
            #expect(loaded.count > 10)
            var pairs = 0
            var hits = 0
            for (path, bundle) in loaded {
                guard bundle.versions.count >= 2, let target = bundle.versionNames.last else { continue }
                let classifier = StepClassifier(bundle: bundle, mappingModels: [:])
                let names = bundle.versionNames
                // Steps: each through a memo of its own destination (a memo is never shared
                // across destinations).
                for (from, to) in zip(names, names.dropFirst()) {
                    let memo = EntityComparisonMemo(destination: to)
                    let memoised = classifier.classify(from: from, to: to, memo: memo)
                    let plain = classifier.classify(from: from, to: to)
                    #expect(memoised.0 == plain.0, "\(path): \(from) → \(to)")
                    #expect(memoised.1 == plain.1, "\(path): \(from) → \(to)")
                    pairs += 1
                }
                // Jumps to the last version through one shared memo, in both orders.
                let starts = Array(names.dropLast())
                for order in [starts, starts.reversed()] {
                    let memo = EntityComparisonMemo(destination: target)
                    for from in order {
                        let memoised = classifier.classify(from: from, to: target, memo: memo)
                        let plain = classifier.classify(from: from, to: target)
                        #expect(memoised.0 == plain.0, "\(path): \(from) → \(target)")
                        #expect(memoised.1 == plain.1, "\(path): \(from) → \(target)")
                        pairs += 1
                    }
                    hits += memo.hits
                }
            }
            #expect(pairs > 400)
            #expect(hits > 1000)
        }
    }
}
