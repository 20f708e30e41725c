import Foundation
import Testing
@testable import ChainPlanReaders

/// `ModelBundleDiscovery.find` on folder trees made for each case: the documented example, a
/// bundle several levels down, the folders it never enters, and its bounds.
@Suite struct ModelBundleDiscoveryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// Folders to make, relative to the searched folder (a `.xcdatamodeld` gets the versions after `:`).
        let folders: [String]
        var versions = ["Model", "Model 2"]
        var maxDepth = 8
        var maxEntries = 50_000
        let expected: ModelBundleDiscovery.Outcome
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "the documented example", folders: ["Sources/Model.xcdatamodeld:Model,Model 2,Model 3"],
             expected: .found("Sources/Model.xcdatamodeld")),
        Case(name: "three levels down, beside other folders",
             folders: ["App", "App/Views", "App/Storage/Data/Model.xcdatamodeld:Model,Model 2", "Docs/a b"],
             expected: .found("App/Storage/Data/Model.xcdatamodeld")),
        Case(name: "a bundle without every version is seen, not found",
             folders: ["Old/Model.xcdatamodeld:Model"], expected: .none(seen: ["Old/Model.xcdatamodeld"])),
        Case(name: "two bundles with every version",
             folders: ["A/Model.xcdatamodeld:Model,Model 2", "B/Model.xcdatamodeld:Model,Model 2"],
             expected: .several(["A/Model.xcdatamodeld", "B/Model.xcdatamodeld"])),
        Case(name: "dependencies, build output and hidden folders are never entered",
             folders: ["Pods/Lib/Model.xcdatamodeld:Model,Model 2", ".build/Model.xcdatamodeld:Model,Model 2",
                       ".hidden/Model.xcdatamodeld:Model,Model 2", "DerivedData/Model.xcdatamodeld:Model,Model 2"],
             expected: .none(seen: [])),
        Case(name: "deeper than the depth limit", folders: ["a/b/c/Model.xcdatamodeld:Model,Model 2"], maxDepth: 3,
             expected: .none(seen: [])),
        Case(name: "at the depth limit", folders: ["a/b/Model.xcdatamodeld:Model,Model 2"], maxDepth: 3,
             expected: .found("a/b/Model.xcdatamodeld")),
        Case(name: "past the entry budget", folders: ["a", "b", "c", "d/Model.xcdatamodeld:Model,Model 2"], maxEntries: 4,
             expected: .none(seen: [])),
    ]

    @Test(arguments: cases)
    func find(_ item: Case) throws {
        let scratch = try TemporaryFolder()
        let folder = scratch.url
        for entry in item.folders {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            let bundle = folder.appendingPathComponent(parts[0])
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            for version in parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : [] {
                try FileManager.default.createDirectory(at: bundle.appendingPathComponent("\(version).xcdatamodel"),
                                                        withIntermediateDirectories: true)
            }
        }
        let outcome = ModelBundleDiscovery.find(holding: item.versions, under: folder, maxDepth: item.maxDepth, maxEntries: item.maxEntries)
        #expect(outcome == item.expected)
        withExtendedLifetime(scratch) {}  // the folder stays until here
    }

    /// A symbolic link to a folder holding the bundle is not followed.
    @Test func symbolicLinksAreNotFollowed() throws {
        let scratch = try TemporaryFolder()
        let base = scratch.url
        let outside = base.appendingPathComponent("outside/Model.xcdatamodeld")
        for version in ["Model", "Model 2"] {
            try FileManager.default.createDirectory(at: outside.appendingPathComponent("\(version).xcdatamodel"), withIntermediateDirectories: true)
        }
        let folder = base.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("linked"), withDestinationURL: base.appendingPathComponent("outside"))
        #expect(ModelBundleDiscovery.find(holding: ["Model", "Model 2"], under: folder) == .none(seen: []))
        withExtendedLifetime(scratch) {}  // the folder stays until here
    }
}
