import Foundation
import ChainPlanTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

extension CorpusTests {
/// `inspect` and `graph` on every model history of the shared corpus, as a user would run
/// them: every bundle is usable (never exit 2), and every diagram is well-formed SVG.
struct CorpusCommandTests {
    static let corpus = SharedCorpus.corpus

    /// Every `.xcdatamodeld` in the corpus, relative to it, sorted.
    static let bundles: [String] = {
        guard let walker = FileManager.default.enumerator(atPath: corpus.path) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") {
                found.append(relative)
                walker.skipDescendants()
            }
        }
        return found.sorted()
    }()

    /// Runs in-process; what it printed on standard output is the document.
    func run(_ arguments: [String]) async throws -> (Int32, Data) {
        let run = await OutputCapture.run(arguments)
        return (run.status, Data(run.output.utf8))
    }

    @Test func theCorpusIsThere() {
        #expect(Self.bundles.count == 19)
    }

    /// CoreStore's evolution demo ships `V1.FromV2.xcmappingmodel` for V2 → V1, a pair that is not
    /// a step of its inferred chain: Core Data and CoreStore use a mapping model for exactly the pair
    /// being migrated, so `explain` must classify the pair heavyweight with that mapping model
    /// (it once looked only at the chain's steps and answered lightweight).
    @Test func explainUsesAMappingModelForAPairOutsideTheChain() async throws {
        let demo = Self.corpus.appendingPathComponent("JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo")
        let bundle = demo.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld").path
        let (_, data) = try await run(["explain", bundle, "Advanced.EvolutionDemo.V2", "Advanced.EvolutionDemo.V1", "--format", "json"])
        let report = try RuleCatalogue.jsonDecoder().decode(ExplainReport.self, from: data)
        #expect(report.migration == .heavyweight)
        #expect(report.mappingModel?.path.hasSuffix("Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel") == true)
        // The chain's own direction is still inferred from the contents alone.
        let (_, forward) = try await run(["explain", bundle, "Advanced.EvolutionDemo.V1", "Advanced.EvolutionDemo.V2", "--format", "json"])
        let forwardReport = try RuleCatalogue.jsonDecoder().decode(ExplainReport.self, from: forward)
        #expect(forwardReport.mappingModel?.path.hasSuffix("Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel") == true)
    }

    @Test(arguments: bundles)
    func inspectReadsEveryBundle(_ relative: String) async throws {
        let bundle = Self.corpus.appendingPathComponent(relative)
        let (status, data) = try await run(["inspect", bundle.path, "--format", "json"])
        #expect(status != 2)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let versions = try #require(json["versions"] as? [[String: Any]])
        let folders = try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter { $0.hasSuffix(".xcdatamodel") }
        #expect(versions.count == folders.count)
    }

    /// All bundles in one process, as the benchmark loads them: one JSON object per bundle, in
    /// order, under `bundles` in the envelope.
    @Test func inspectReadsSeveralBundlesAtOnce() async throws {
        let paths = Self.bundles.map { Self.corpus.appendingPathComponent($0).path }
        let (status, data) = try await run(["inspect"] + paths + ["--format", "json"])
        #expect(status != 2)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let array = try #require(document["bundles"] as? [[String: Any]])
        #expect(array.count == Self.bundles.count)
        #expect(array.compactMap { $0["bundle"] as? String }.map { $0.hasSuffix(".xcdatamodeld") } == Array(repeating: true, count: Self.bundles.count))
        try #require(paths.count >= 2)
        #expect(await ChainPlan.run(arguments: ["inspect", paths[0], paths[1], "--version", "X"]) == 2)
    }

    @Test(arguments: bundles)
    func graphDrawsEveryBundle(_ relative: String) async throws {
        let bundle = Self.corpus.appendingPathComponent(relative)
        let (status, svg) = try await run(["graph", bundle.path])
        #expect(status == 0)
        let document = try XMLDocument(data: svg)
        #expect(document.rootElement()?.name == "svg")
        let report = ChainPlanner().plan(inputAt: bundle)
        let target = try #require(report.target)
        #expect(String(decoding: svg, as: UTF8.self).contains(">\(target.xmlEscapedForTest)<"))
    }
}
}

private extension String {
    var xmlEscapedForTest: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
