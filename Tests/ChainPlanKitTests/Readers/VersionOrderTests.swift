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
@testable import ChainPlanStore
@testable import ChainPlanOutput

@Suite("VersionOrder")
struct VersionOrderTests {
    /// Pairs in strictly increasing natural order.
    static let increasingPairs: [(String, String)] = [
        ("Model", "Model 2"),
        ("Model 2", "Model 10"),
        ("Model 9", "Model 10"),
        ("Model 99", "Model 117"),
        ("2.9", "2.10"),
        ("2.24", "2.24.1"),
        ("2.24.1", "2.25"),
        ("v1.0", "v1.0-2"),
        ("zmessaging", "zmessaging1.27"),
        ("zmessaging1.27", "zmessaging2.3"),
        ("zmessaging2.3", "zmessaging2.24"),
        ("zmessaging2.24", "zmessaging2.24.1"),
        ("zmessaging2.24.1", "zmessaging2.101.0"),
        ("zmessaging2.21.2", "zmessaging2.24"),
        ("zmessaging2.100.0", "zmessaging2.101.0"),
        ("UnCloudNotesDataModel", "UnCloudNotesDataModel v2"),
        ("UnCloudNotesDataModel v3", "UnCloudNotesDataModel v4"),
        ("SampleModel", "SampleModel2"),
        ("SampleModel3", "SampleModel3_v2"),
        ("SampleModel3_v2", "SampleModel3_v3"),
        ("TwoFAS", "TwoFAS2"),
        ("ZMEventModel", "ZMEventModel2.0"),
        ("Advanced.EvolutionDemo.V1", "Advanced.EvolutionDemo.V2"),
        ("Advanced.EvolutionDemo", "Advanced.EvolutionDemo.V2"),
        // Numbers longer than any integer type still compare as numbers.
        ("Model 99999999999999999999999", "Model 100000000000000000000000"),
        // Equal by runs: the plain string order decides, so the order stays total.
        ("v01", "v1"),
    ]

    @Test("natural order of a pair", arguments: increasingPairs)
    func pair(_ lower: String, _ higher: String) {
        #expect(VersionOrder.areInIncreasingOrder(lower, higher))
        #expect(!VersionOrder.areInIncreasingOrder(higher, lower))
        #expect(VersionOrder.sorted([higher, lower]) == [lower, higher])
    }

    @Test("a name is not before itself")
    func irreflexive() {
        for name in ["Model", "Model 2", "2.10", ""] {
            #expect(!VersionOrder.areInIncreasingOrder(name, name))
        }
    }

    @Test("sorting a shuffled history")
    func sortsHistory() {
        let history = ["Model", "Model 2", "Model 3", "Model 9", "Model 10", "Model 11", "Model 20", "Model 100", "Model 117"]
        #expect(VersionOrder.sorted(history.reversed()) == history)
        #expect(VersionOrder.sorted(history.sorted()) == history)
        let wire = ["zmessaging", "zmessaging1.27", "zmessaging1.28", "zmessaging2.3", "zmessaging2.9", "zmessaging2.10",
                    "zmessaging2.11", "zmessaging2.15.0", "zmessaging2.21.2", "zmessaging2.24", "zmessaging2.24.1",
                    "zmessaging2.25.0", "zmessaging2.99.0", "zmessaging2.100.0", "zmessaging2.101.0"]
        #expect(VersionOrder.sorted(wire.sorted()) == wire)
    }
}

/// `../shared/corpus/steps.tsv`, grouped by bundle.
struct StepsTable {
    struct Step: Sendable {
        var from: String
        var to: String
        var label: String
    }

    struct Bundle: Sendable, CustomTestStringConvertible {
        var path: String
        var steps: [Step]
        var testDescription: String { path.components(separatedBy: "/").last ?? path }
    }

    var bundles: [Bundle]

    static func load() throws -> StepsTable {
        let url = ModelTestSupport.corpus.appendingPathComponent("steps.tsv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var order: [String] = []
        var steps: [String: [Step]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("bundle\t") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4 else { continue }
            if steps[columns[0]] == nil { order.append(columns[0]) }
            steps[columns[0], default: []].append(Step(from: columns[1], to: columns[2], label: columns[3]))
        }
        return StepsTable(bundles: order.map { Bundle(path: $0, steps: steps[$0] ?? []) })
    }
}

extension CorpusTests {
    /// The tests of `VersionOrderTests` that read `../shared`.
    @Suite struct VersionOrderCorpusTests {
        /// Checks the natural order of every bundle's version folder names against `steps.tsv`,
        /// the history order recorded from git.
        ///
        /// Rows do not all form a simple chain: Wire's `lightweight-tested` rows jump from fixture
        /// versions straight to the current one, CoreDataPlus lists one step twice (mapping model
        /// and test), and CoreStore has a downgrade row V2 → V1. So instead of reading the rows as
        /// a sequence, the test checks three order-independent facts that together pin the order:
        /// 1. the versions named by the rows are exactly the bundle's folders;
        /// 2. every pair of neighbours in the natural order is a row (the history is a chain of
        ///    single steps, so it is that sequence);
        /// 3. every row goes forward in the natural order, except a row whose reverse is also a
        ///    row (a downgrade), which must go backward.
        @Test("natural order reproduces the history in steps.tsv", arguments: (try? StepsTable.load())?.bundles ?? [])
        func matchesHistory(_ bundle: StepsTable.Bundle) throws {
            let folder = ModelTestSupport.corpus.appendingPathComponent(bundle.path)
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let names = entries.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
            #expect(!names.isEmpty)
            let natural = VersionOrder.sorted(names)

            #expect(Set(bundle.steps.flatMap { [$0.from, $0.to] }) == Set(names))

            let edges = Set(bundle.steps.map { "\($0.from)\u{0}\($0.to)" })
            for (older, newer) in zip(natural, natural.dropFirst()) {
                #expect(edges.contains("\(older)\u{0}\(newer)"), "no step \(older) → \(newer) in \(bundle.path)")
            }

            for step in bundle.steps {
                let isDowngrade = edges.contains("\(step.to)\u{0}\(step.from)")
                    && !VersionOrder.areInIncreasingOrder(step.from, step.to)
                if isDowngrade {
                    #expect(VersionOrder.areInIncreasingOrder(step.to, step.from))
                } else {
                    #expect(VersionOrder.areInIncreasingOrder(step.from, step.to), "\(step.from) → \(step.to) goes backward")
                }
            }
        }

        @Test("steps.tsv covers the expected bundles, with one downgrade row")
        func stepsTableShape() throws {
            let table = try StepsTable.load()
            #expect(table.bundles.count == 16)
            let downgrades = table.bundles.flatMap { bundle in
                bundle.steps.filter { !VersionOrder.areInIncreasingOrder($0.from, $0.to) }.map { "\($0.from) → \($0.to)" }
            }
            #expect(downgrades == ["Advanced.EvolutionDemo.V2 → Advanced.EvolutionDemo.V1"])
        }
    }
}
