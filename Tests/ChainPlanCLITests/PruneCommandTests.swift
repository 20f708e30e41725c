import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanCore
@testable import ChainPlanHistory

/// `chainplan prune --oldest V` on a real repository with release tags.
struct PruneCommandTests {
    let git = Git.onPath()

    /// V1 (v1.0), V2 (v2.0), V3 (v3.0: V2 moved in the diagram, so its hashes are V2's) and V4
    /// (v4.0), with a mapping model for V1 → V2; the spec lists all four.
    func repository() throws -> URL {
        let repo = try TestRepository(git: git, prefix: "chainplan-prune")
        let moved = RuleExampleFixtures.noteWithBody.replacingOccurrences(of: "<entity name=\"Note\">", with: "<entity name=\"Note\" positionX=\"9\">")
        let versions = [RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, moved, RuleExampleFixtures.numericTitleWithBody]
        for count in 1...4 {
            var files = RuleExampleFixtures.project(Array(versions.prefix(count)))
            if count == 2 { files.append(RuleExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V2"))) }
            try repo.write(files)
            try repo.commit("V\(count)", tag: "v\(count).0")
        }
        return repo.folder
    }

    @Test func strandedReleasesFilesAndTheSpecEdit() async throws {
        try #require(git.executable != nil, "git is needed")
        let folder = try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("chain.json").path
        let json = await OutputCapture.run(["prune", spec, "--oldest", "V3", "--format", "json"])
        #expect(json.status == 0, "\(json.error)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["versions"] as? [String] == ["V1", "V2"])
        let stranded = try #require(document["stranded"] as? [[String: Any]])
        #expect(stranded.map { $0["version"] as? String } == ["V1"])
        #expect(stranded.first?["releases"] as? [String] == ["v1.0"])
        #expect((stranded.first?["outcome"] as? String)?.contains("134130") == true)
        #expect((document["stillOpens"] as? [[String: String]]) == [["version": "V2", "opensAs": "V3"]])
        let removed = try #require(document["removed"] as? [String])
        #expect(removed.contains { $0.hasSuffix("Model.xcdatamodeld/V1.xcdatamodel") })
        #expect(removed.contains { $0.hasSuffix("Model.xcdatamodeld/V2.xcdatamodel") })
        #expect(removed.contains { $0.hasSuffix("V1ToV2.xcmappingmodel") })
        #expect((document["bytes"] as? Int ?? 0) > 0)
        #expect(document["chain"] as? String == #"["V3", "V4"]"#)
        #expect(document["releasesKnown"] as? Bool == true)

        let text = await OutputCapture.run(["prune", spec, "--oldest", "V3"])
        #expect(text.status == 0)
        #expect(text.output.contains("'V1' (current at v1.0)"))
        #expect(text.output.contains("then write the chain as: [\"V3\", \"V4\"]"))
        // Nothing was deleted or written.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Model.xcdatamodeld/V1.xcdatamodel/contents").path))
        let status = try git.run(["status", "--porcelain"], in: folder).get()
        #expect(status.isEmpty)
    }

    @Test func theOldestVersionRemovesNothingAndAnUnknownVersionIsUsage() async throws {
        try #require(git.executable != nil, "git is needed")
        let folder = try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("chain.json").path
        let none = await OutputCapture.run(["prune", spec, "--oldest", "V1"])
        #expect(none.status == 0)
        #expect(none.output.contains("nothing to remove"))
        let unknown = await OutputCapture.run(["prune", spec, "--oldest", "V9"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("'V9' is not a version of the chain"))
    }
}
