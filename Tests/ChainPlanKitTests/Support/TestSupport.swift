import Foundation
import Testing
import ChainPlanTestSupport
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Paths and helpers shared by the tests.
enum TestPaths {
    /// The package root (…/Tests/ChainPlanKitTests/Support/TestSupport.swift → root).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")
    /// The shared corpus, by relative path from the package root (never copied into the repo).
    static let corpus = SharedCorpus.corpus
    static let chains = packageRoot.appendingPathComponent("Chains")
}

enum SpecText {
    /// Reads spec text as the file `chain.<ext>` would be read.
    static func read(_ text: String, syntax: SpecSyntax = .json, maxBytes: Int = 16 << 20) -> SpecReader.Result {
        SpecReader(maxBytes: maxBytes, codes: PlanningRules.all).read(data: Data(text.utf8), displayPath: syntax == .json ? "chain.json" : "chain.yaml", syntax: syntax)
    }

    /// Plans spec text against a synthetic bundle whose versions have empty models.
    static func plan(_ text: String, syntax: SpecSyntax = .json, bundleVersions: [String]? = nil,
                     currentVersion: String? = nil) -> ChainReport {
        let read = read(text, syntax: syntax)
        guard let spec = read.spec else { return ChainReport.unusable(spec: "chain.json", diagnostics: read.diagnostics) }
        let bundle = bundleVersions.map { names in
            ModelBundle(name: "Model", path: "Model.xcdatamodeld",
                        versions: names.map { ModelVersion(name: $0, path: "Model.xcdatamodeld/\($0).xcdatamodel/contents", model: ObjectModel()) },
                        currentVersion: currentVersion)
        }
        var report = ChainPlanner().plan(spec: spec, bundle: bundle, isInferred: false)
        report.diagnostics = (report.diagnostics + read.diagnostics).sorted()
        return report
    }
}

/// Golden files under Tests/Fixtures, by path relative to it (see `GoldenFile`).
enum Golden {
    static func check(_ actual: Data, against relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Bool {
        try GoldenFile.check(actual, with: TestPaths.fixtures.appendingPathComponent(relativePath), sourceLocation: sourceLocation)
    }
}
