import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanCore
@testable import ChainPlanHistory

/// `chainplan history` on a real repository made in a temporary folder.
struct HistoryCommandTests {
    let git = Git.onPath()

    /// A repository with `Model` (tagged v1.0), then `Model 2` made current (v2.0), then `Model 3`
    /// added but not committed.
    func repository() throws -> URL {
        let repo = try TestRepository(git: git, prefix: "chainplan-history")
        func version(_ name: String, current: String) throws {
            try repo.write([RuleExampleFixtures.version(name, RuleExampleFixtures.note)].map {
                RuleExample.File("App/\($0.path)", $0.text)
            } + [RuleExample.File("App/Model.xcdatamodeld/.xccurrentversion", RuleExampleFixtures.current(current).text)])
        }
        try version("Model", current: "Model")
        try repo.commit("one", tag: "v1.0")
        try version("Model 2", current: "Model 2")
        try repo.commit("two", tag: "v2.0")
        try repo.run("tag", "nightly")
        try version("Model 3", current: "Model 2")
        return repo.folder
    }

    @Test func textAndJSON() async throws {
        try #require(git.executable != nil, "git is needed")
        let folder = try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("App/Model.xcdatamodeld").path
        let text = await OutputCapture.run(["history", bundle])
        #expect(text.status == 0, "\(text.error)")
        let lines = text.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(text.output)")
        #expect(lines[1].hasPrefix("  Model    added in ") && lines[1].hasSuffix("; current at v1.0"))
        #expect(lines[2].hasPrefix("  Model 2  added in "))
        #expect(lines[2].contains("v2.0") && lines[2].contains("nightly"))
        #expect(lines[3] == "  Model 3  not committed yet")

        let json = await OutputCapture.run(["history", bundle, "--tags", "v*", "--format", "json"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.map { $0["version"] as? String } == ["Model", "Model 2", "Model 3"])
        #expect(versions.map { $0["currentIn"] as? [String] } == [["v1.0"], ["v2.0"], []])
        let added = try #require(versions[0]["addedIn"] as? [String: String])
        #expect(added["commit"]?.count == 40)
        #expect(added["date"]?.contains("T") == true)
        #expect(versions[2]["addedIn"] is NSNull)
    }

    /// Outside a work tree, and with a hostile tag pattern: exit 2 with the finding, never a shell.
    @Test func unusableInput() async throws {
        try #require(git.executable != nil, "git is needed")
        let folder = try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-nogit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("App"), to: outside)
        let notATree = await OutputCapture.run(["history", outside.appendingPathComponent("Model.xcdatamodeld").path])
        #expect(notATree.status == 2)
        #expect(notATree.error.contains("[CP405]"))
        // A shell-like pattern reaches git as one argument: it matches no tag, and nothing runs.
        let hostile = await OutputCapture.run(["history", folder.appendingPathComponent("App/Model.xcdatamodeld").path,
                                               "--tags", "$(touch pwned)", "--format", "json"])
        #expect(hostile.status == 0, "\(hostile.error)")
        #expect(!hostile.output.contains("v1.0"))
        for place in [folder, folder.appendingPathComponent("App"), URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            #expect(!FileManager.default.fileExists(atPath: place.appendingPathComponent("pwned").path))
        }
        // A line break in a pattern is refused before git runs.
        let broken = await OutputCapture.run(["history", folder.appendingPathComponent("App/Model.xcdatamodeld").path, "--tags", "v1\nv2"])
        #expect(broken.status == 2)
    }
}
