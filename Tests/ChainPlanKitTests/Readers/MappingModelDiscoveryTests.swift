import Foundation
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

@Suite("Mapping model discovery")
struct MappingModelDiscoveryTests {
    /// Builds a tree:
    /// ```
    /// App/Zeta.xcmappingmodel/            found
    /// App/Migrations/Alpha.xcmappingmodel/ found
    /// App/Migrations/Alpha.xcmappingmodel/Nested.xcmappingmodel/  not searched (inside a package)
    /// App/Model.xcdatamodeld/Inner.xcmappingmodel/                not searched (inside a bundle)
    /// App/.git/Hidden.xcmappingmodel/                             hidden folder
    /// App/File.xcmappingmodel                                     a file, not a folder
    /// App/Linked.xcmappingmodel -> Migrations/Alpha.xcmappingmodel  symbolic link
    /// App/Loop -> ..                                              symbolic link loop
    /// App/d1/d2/d3/Deep.xcmappingmodel/                           depth 3
    /// ```
    static func makeTree() throws -> TemporaryMappingFolder {
        let folder = try TemporaryMappingFolder()
        let manager = FileManager.default
        let app = folder.root.appendingPathComponent("App")
        for path in ["Zeta.xcmappingmodel", "Migrations/Alpha.xcmappingmodel/Nested.xcmappingmodel",
                     "Model.xcdatamodeld/Inner.xcmappingmodel", ".git/Hidden.xcmappingmodel", "d1/d2/d3/Deep.xcmappingmodel"] {
            try manager.createDirectory(at: app.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try Data().write(to: app.appendingPathComponent("File.xcmappingmodel"))
        try manager.createSymbolicLink(atPath: app.appendingPathComponent("Linked.xcmappingmodel").path,
                                       withDestinationPath: "Migrations/Alpha.xcmappingmodel")
        try manager.createSymbolicLink(atPath: app.appendingPathComponent("Loop").path, withDestinationPath: "..")
        return folder
    }

    static func relative(_ urls: [URL], to root: URL) -> [String] {
        urls.map { String($0.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
    }

    @Test("finds mapping model folders, sorted, without following links or entering packages")
    func finds() throws {
        let folder = try Self.makeTree()
        defer { folder.remove() }
        let result = MappingModelDiscovery.find(in: folder.root)
        #expect(Self.relative(result.urls, to: folder.root) == [
            "App/Migrations/Alpha.xcmappingmodel", "App/Zeta.xcmappingmodel", "App/d1/d2/d3/Deep.xcmappingmodel",
        ])
        #expect(!result.isTruncated)
    }

    @Test("the depth limit bounds the search", arguments: [(3, 2), (4, 3)])
    func depth(_ maxDepth: Int, _ expected: Int) throws {
        let folder = try Self.makeTree()
        defer { folder.remove() }
        // The temporary root is level 0; Deep.xcmappingmodel is listed while reading level 4 (App/d1/d2/d3).
        #expect(MappingModelDiscovery.find(in: folder.root, maxDepth: maxDepth).urls.count == expected)
    }

    @Test("the count and folder limits stop the search and say so")
    func limits() throws {
        let folder = try Self.makeTree()
        defer { folder.remove() }
        let few = MappingModelDiscovery.find(in: folder.root, maxCount: 1)
        #expect(few.urls.count == 1)
        #expect(few.isTruncated)
        let narrow = MappingModelDiscovery.find(in: folder.root, maxDirectories: 2)
        #expect(narrow.isTruncated)
        #expect(Self.relative(narrow.urls, to: folder.root) == ["App/Zeta.xcmappingmodel"])
    }

    @Test("a missing directory gives nothing")
    func missing() {
        let result = MappingModelDiscovery.find(in: URL(fileURLWithPath: "/nonexistent/chainplan/\(UUID().uuidString)"))
        #expect(result == MappingModelDiscovery.Result(urls: [], isTruncated: false))
    }
}
