import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning

extension CorpusTests {
    /// The analysis's shortcut for tables of copied entities whose columns stay (unchanged, or
    /// only renumbered) says exactly what planning every table says, option on and off, on every
    /// consecutive lightweight pair of real histories.
    @Suite struct SQLiteWorkFastPathCorpusTests {
        @Test(arguments: [
            "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld",
            "rileytestut__AltStore/AltStoreCore/Model/AltStore.xcdatamodeld",
            "rileytestut__Delta/Delta/Database/Model/Delta.xcdatamodeld",
        ])
        func shortcutEqualsPlanning(_ path: String) throws {
            let bundle = try #require(ChainPlanner().bundle(inputAt: SharedCorpus.corpus.appendingPathComponent(path)))
            let classifier = StepClassifier(bundle: bundle, mappingModels: [:])
            let names = bundle.versionNames
            var compared = 0
            for (from, to) in zip(names, names.dropFirst()) {
                let (classification, mapping) = classifier.classify(from: from, to: to)
                guard classification.migration == .lightweight, let source = bundle.version(named: from)?.model,
                      let destination = bundle.version(named: to)?.model else { continue }
                let copied = Set(mapping?.entityMappings.filter { $0.kind == .copy && $0.source == $0.destination }.compactMap(\.destination) ?? [])
                for deferring in [false, true] {
                    let fast = SQLiteWork.of(classification, source: source, destination: destination, layouts: nil, copied: copied, deferring: deferring)
                    let full = SQLiteWork.of(classification, source: source, destination: destination, layouts: nil, copied: [], deferring: deferring)
                    #expect(fast == full, "\(from) → \(to), deferring \(deferring)")
                }
                compared += 1
            }
            #expect(compared > 0)
        }
    }
}
