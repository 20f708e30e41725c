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

struct PathTests {
    @Test func everyStartOfALongArrayHasItsLength() {
        let names = (1...1_000).map { "V\($0)" }
        let text = "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        var options = PlanOptions()
        options.maxListedPathSteps = 1_000_000
        let report = ChainPlanner(options: options).plan(spec: SpecText.read(text).spec!, bundle: nil, isInferred: false)
        #expect(report.target == "V1000")
        #expect(report.paths.map(\.length) == (0..<1_000).map { 999 - $0 })
        #expect(report.paths[0].steps?.count == 999)
        #expect(report.paths[998].steps == [ChainReport.Step(from: "V999", to: "V1000")])
    }

    /// Listing every step of every path grows with the square of the chain: by default a
    /// 1,000-version array (499,500 steps) gives `next` and `length` instead.
    @Test func theDefaultAbbreviatesQuadraticListings() {
        let text = "[" + (1...1_000).map { "\"V\($0)\"" }.joined(separator: ",") + "]"
        let report = SpecText.plan(text)
        #expect(report.pathsAbbreviated == true)
        #expect(report.paths[0].length == 999)
        let small = SpecText.plan("[" + (1...100).map { "\"V\($0)\"" }.joined(separator: ",") + "]")
        #expect(small.pathsAbbreviated == nil)
        #expect(small.paths[0].steps?.count == 99)
    }

    @Test func largeChainsAbbreviatePaths() {
        var options = PlanOptions()
        options.maxListedPathSteps = 100
        let spec = SpecText.read("[" + (1...100).map { "\"V\($0)\"" }.joined(separator: ",") + "]").spec!
        let report = ChainPlanner(options: options).plan(spec: spec, bundle: nil, isInferred: false)
        #expect(report.pathsAbbreviated == true)
        #expect(report.paths.allSatisfy { $0.steps == nil })
        #expect(report.paths[0].next == "V2")
        #expect(report.paths[0].length == 99)
    }

    @Test func unreachableStartsSayWhy() {
        let report = SpecText.plan(#"{"chain": {"S": "A", "A": "B", "B": "A", "X": "Y", "T0": "T"}, "target": "T"}"#)
        let byStart = Dictionary(uniqueKeysWithValues: report.paths.map { ($0.start, $0) })
        #expect(byStart["S"]?.problem == "cycle")
        #expect(byStart["S"]?.stopsAt == "A")
        #expect(byStart["X"]?.problem == "dead-end")
        #expect(byStart["X"]?.stopsAt == "Y")
        #expect(byStart["T0"]?.reachable == true)
        #expect(byStart["T"]?.length == 0)
    }

    @Test func targetInsideACycleStillEndsPaths() {
        let report = SpecText.plan(#"{"chain": ["A", "B", "C", "B"], "target": "B"}"#)
        #expect(report.diagnostics.map(\.code).contains(.migrationCycle))
        #expect(report.paths.first { $0.start == "A" }?.length == 1)
        #expect(report.paths.first { $0.start == "C" }?.length == 1)
    }

    @Test func emptyChainGoesStraightToTheCurrentVersion() {
        let report = SpecText.plan("[]", bundleVersions: ["M1", "M2", "M3"], currentVersion: "M3")
        #expect(report.diagnostics.isEmpty)
        #expect(report.target == "M3")
        #expect(report.steps.map { "\($0.from)>\($0.to)" } == ["M1>M3", "M2>M3"])
        #expect(report.paths.map(\.length) == [1, 1, 0])
    }

    @Test func bundleVersionsMissingFromTheChainAreStartsThatCannotMigrate() {
        let report = SpecText.plan(#"["A", "C"]"#, bundleVersions: ["A", "B", "C"], currentVersion: "C")
        #expect(report.versions == ["A", "C", "B"])
        let b = report.paths.first { $0.start == "B" }
        #expect(b?.problem == "not-in-chain")
        #expect(report.diagnostics.map(\.code) == [.versionMissingFromChain])
    }
}

/// `{}` (no progressive migration): every version of the bundle goes straight to the target,
/// the spec's `target` when it names one, else the bundle's current version.
struct EmptyChainTests {
    static func bundle(current: String) -> ModelBundle {
        ModelBundle(name: "Model", path: "Model.xcdatamodeld",
                    versions: ["A", "B", "C"].map { ModelVersion(name: $0, path: "Model.xcdatamodeld/\($0).xcdatamodel/contents", model: M(E("Note"))) },
                    currentVersion: current)
    }

    @Test(arguments: [(#"{"chain": {}}"#, "C"), (#"{"chain": {}, "target": "B"}"#, "B"), (#"{"chain": [], "target": "A"}"#, "A")])
    func everyVersionGoesStraightToTheTarget(_ spec: String, _ target: String) throws {
        let report = ChainPlanner().plan(spec: try #require(SpecText.read(spec).spec), bundle: Self.bundle(current: "C"), isInferred: false)
        #expect(report.target == target)
        #expect(Set(report.steps.map { "\($0.from)→\($0.to)" }) == Set(["A", "B", "C"].filter { $0 != target }.map { "\($0)→\(target)" }))
        #expect(report.paths.allSatisfy { $0.reachable })
        #expect(!report.diagnostics.contains { $0.code == .unreachableTarget })
    }
}

/// `validate` text says what each start's store would go through without the chain, naming the
/// starts whose direct jump fails or loses data.
struct DirectJumpsLineTests {
    /// `title` is dropped, then re-added as Integer 64: each step infers, but the jump from V1
    /// sees String → Integer 64, which Core Data refuses. (The former fixture, an identifier that
    /// names the intermediate name, now loses the data on the chain's own step under exact key
    /// matching, so the jump loses nothing the chain keeps.)
    @Test func startsWhoseDirectJumpFailsAreNamed() throws {
        let versions = [("V1", M(E("Note", [.a("title", .string)]))), ("V2", M(E("Note"))),
                        ("V3", M(E("Note", [.a("title", .integer64)])))]
        let bundle = ModelBundle(name: "Model", path: "Model.xcdatamodeld",
                                 versions: versions.map { ModelVersion(name: $0.0, path: "Model.xcdatamodeld/\($0.0).xcdatamodel/contents", model: $0.1) },
                                 currentVersion: "V3")
        let report = ChainPlanner().plan(spec: try #require(SpecText.read(#"["V1", "V2", "V3"]"#).spec), bundle: bundle, isInferred: false)
        #expect(TextReporter.directJumpsLine(report) == "direct jumps to the target, without the chain: 1 lightweight, 1 not inferable (from 'V1')")
        let text = TextReporter.render(report)
        #expect(text.contains("direct jumps to the target"))
        #expect(!TextReporter.render(report, options: RenderOptions(view: .paths(from: nil))).contains("direct jumps to the target"))
        // Without a model there is nothing to say.
        #expect(TextReporter.directJumpsLine(SpecText.plan(#"["A", "B", "C"]"#)) == nil)
    }
}
