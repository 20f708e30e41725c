import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

extension CorpusTests {
    /// The memo of planned tables says exactly what planning every table says: every direct
    /// jump (each version to the last) of every corpus bundle with three or more versions (the
    /// histories whose jumps `--deferred --format json` analyses), option on and off, analysed
    /// in history order through one shared memo as a chain does, against the same jump
    /// analysed without it.
    @Suite struct SQLiteWorkMemoCorpusTests {
        /// Every `.xcdatamodeld` of the corpus, relative to it, sorted.
        static func bundles() -> [String] {
            let root = SharedCorpus.corpus
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
            var found: [String] = []
            for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
                found.append(String(url.path.dropFirst(root.path.count + 1)))
                walker.skipDescendants()
            }
            return found.sorted()
        }

        /// Every corpus bundle that reads, with its path relative to the corpus, in `bundles()` order:
        /// read once per test run (three corpus suites compare memoised against plain work on them).
        private static let read: [(path: String, bundle: ModelBundle)] =
            bundles().compactMap { path in ChainPlanner().bundle(inputAt: SharedCorpus.corpus.appendingPathComponent(path)).map { (path, $0) } }

        static func loadedBundles() -> [(path: String, bundle: ModelBundle)] { read }

        @Test func memoEqualsPlanningOnEveryJump() throws {
            let loaded = Self.loadedBundles()
            #expect(loaded.count > 10)
            var jumps = 0
            var hits = 0
            for (path, bundle) in loaded {
                guard bundle.versions.count >= 3, let target = bundle.versionNames.last,
                      let destination = bundle.version(named: target)?.model else { continue }
                let classifier = StepClassifier(bundle: bundle, mappingModels: [:])
                let memo = SQLiteWorkMemo()
                for from in bundle.versionNames.dropLast(2) {
                    let (classification, mapping) = classifier.classify(from: from, to: target)
                    guard classification.migration == .lightweight, let source = bundle.version(named: from)?.model else { continue }
                    let copied = Set(mapping?.entityMappings.filter { $0.kind == .copy && $0.source == $0.destination }.compactMap(\.destination) ?? [])
                    for deferring in [true, false] {
                        let memoised = SQLiteWork.of(classification, source: source, destination: destination, layouts: nil, copied: copied,
                                                     deferring: deferring, memo: memo)
                        let planned = SQLiteWork.of(classification, source: source, destination: destination, layouts: nil, copied: copied,
                                                    deferring: deferring)
                        #expect(memoised == planned, "\(path): \(from) → \(target), deferring \(deferring)")
                    }
                    jumps += 1
                }
                hits += memo.hits
            }
            #expect(jumps > 100)
            #expect(hits > 0)
        }
    }
}
