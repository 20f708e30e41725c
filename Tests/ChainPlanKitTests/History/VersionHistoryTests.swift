import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanHistory
@testable import ChainPlanPlanning
@testable import ChainPlanReaders

/// When each version entered the repository, and the chain guessed from it: real repositories
/// made in temporary folders, with renames of the bundle's folder and of a version.
struct VersionHistoryTests {
    typealias Repo = ShippedModelsTests.Repo
    let git = Git.onPath()

    /// A bundle folder's files: `versions` (name, entities) and the current version.
    static func bundle(_ folder: String, _ versions: [(String, String)], current: String) -> [RuleExample.File] {
        versions.map { RuleExample.File("\(folder)/\($0.0).xcdatamodel/contents", RuleExampleFixtures.contents($0.1)) }
            + [RuleExample.File("\(folder)/.xccurrentversion", RuleExampleFixtures.current(current).text)]
    }

    /// `Model` and `Model 2` in `Model.xcdatamodeld` (v2.0), the folder renamed to
    /// `Store.xcdatamodeld`, then `Library v1.4` added and made current (v3.0): names alone put
    /// `Library v1.4` first.
    func stemChange() throws -> Repo {
        let repo = try Repo(git: git)
        try repo.write(Self.bundle("Model.xcdatamodeld", [("Model", RuleExampleFixtures.note)], current: "Model"))
        try repo.commit("first model", tag: "v1.0")
        try repo.write(Self.bundle("Model.xcdatamodeld", [("Model 2", RuleExampleFixtures.noteWithBody)], current: "Model 2"))
        try repo.commit("second model", tag: "v2.0")
        try repo.run("mv", "Model.xcdatamodeld", "Store.xcdatamodeld")
        try repo.commit("rename the bundle")
        try repo.write(Self.bundle("Store.xcdatamodeld", [("Library v1.4", RuleExampleFixtures.numericTitleWithBody)], current: "Library v1.4"))
        try repo.run("tag", "-a", "-m", "annotated", "v3.0")
        try repo.commit("library model", tag: "v3.1")
        return repo
    }

    @Test func addedOrderFollowsTheFoldersRename() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try stemChange()
        let names = ["Library v1.4", "Model", "Model 2"]
        var history = try VersionHistory.read(bundleAt: repo.folder.appendingPathComponent("Store.xcdatamodeld"), versionNames: names, git: git).get()
        #expect(history.addedOrder == ["Model": 0, "Model 2": 1, "Library v1.4": 2])
        #expect(Set(history.addedIn.keys) == Set(names))
        #expect(history.addedIn["Model"]?.commit == (try repo.run("rev-parse", "v1.0").trimmingCharacters(in: .newlines)))
        #expect(history.addedIn["Model"]?.date.contains("T") == true)
        #expect(history.folders == ["Store.xcdatamodeld", "Model.xcdatamodeld"])
        #expect(!history.isShallow)
        try history.readCurrentVersions(tags: nil).get()
        // v3.0 (annotated) was made before the library model was committed: 'Model 2' was still current.
        #expect(history.currentIn == ["Model": ["v1.0"], "Model 2": ["v2.0", "v3.0"], "Library v1.4": ["v3.1"]])
        try history.readCurrentVersions(tags: "v2*").get()
        #expect(history.currentIn == ["Model 2": ["v2.0"]])
        #expect(history.readCurrentVersions(tags: "v1\nv2").failureValue != nil)
    }

    @Test func aRenamedVersionKeepsItsFirstCommit() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try stemChange()
        try repo.run("mv", "Store.xcdatamodeld/Model.xcdatamodel", "Store.xcdatamodeld/Model 1.xcdatamodel")
        try repo.commit("rename a version")
        let history = try VersionHistory.read(bundleAt: repo.folder.appendingPathComponent("Store.xcdatamodeld"),
                                              versionNames: ["Library v1.4", "Model 1", "Model 2"], git: git).get()
        #expect(history.addedOrder == ["Model 1": 0, "Model 2": 1, "Library v1.4": 2])
    }

    /// The chain guessed for a bare bundle: by history in a work tree, by names elsewhere.
    @Test func theGuessedChainFollowsHistoryAndEndsAtTheCurrentVersion() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try stemChange()
        try repo.write(Self.bundle("Store.xcdatamodeld", [("Library v1.5", RuleExampleFixtures.numericTitleWithBody)], current: "Library v1.4"))
        let store = repo.folder.appendingPathComponent("Store.xcdatamodeld")
        var options = PlanOptions()
        options.baseDirectory = repo.folder
        options.git = git
        let loader = ProjectLoader(options: options)
        let bundle = try #require(ModelBundleReader().read(bundleAt: store, displayPath: "Store.xcdatamodeld").bundle)
        let order = loader.inferredOrder(of: bundle, at: store)
        #expect(order.versions == ["Model", "Model 2", "Library v1.4"])
        #expect(order.evidence == .history)
        #expect(order.leftOut == ["Library v1.5"])
        let report = ChainPlanner(options: options).plan(loader.load(inputAt: store)).report
        let cp110 = try #require(report.diagnostics.first { $0.code == .inferredOrder })
        #expect(cp110.message.contains("follows the commits that first added each version (their names alone would order them otherwise)"))
        #expect(cp110.message.contains("it ends at the current version 'Library v1.4', so 'Library v1.5' comes after it and is left out"))
        #expect(!report.diagnostics.contains { $0.code == .targetNotCurrentVersion })

        // The same bundle outside git: by names, still ending at the current version.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-nogit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: store, to: copy.appendingPathComponent("Store.xcdatamodeld"))
        let outside = loader.inferredOrder(of: bundle, at: copy.appendingPathComponent("Store.xcdatamodeld"))
        #expect(outside.versions == ["Library v1.4"])
        #expect(outside.leftOut == ["Library v1.5", "Model", "Model 2"])
        #expect(outside.evidence == .names(why: nil))
    }

    @Test func aShallowCloneFallsBackToNames() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try stemChange()
        let clone = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-shallow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: clone) }
        _ = try git.run(["clone", "-q", "--depth", "1", "file://" + repo.folder.path, clone.path], in: repo.folder).get()
        let store = clone.appendingPathComponent("Store.xcdatamodeld")
        let bundle = try #require(ModelBundleReader().read(bundleAt: store, displayPath: "Store.xcdatamodeld").bundle)
        var options = PlanOptions()
        options.git = git
        let order = ProjectLoader(options: options).inferredOrder(of: bundle, at: store)
        guard case .names(let why?) = order.evidence else { Issue.record("expected names, got \(order.evidence)"); return }
        #expect(why.contains("shallow"))
    }

    struct OrderCase: Sendable, CustomTestStringConvertible {
        var name: String
        var names: [String]
        var current: String?
        var added: [String: Int]?
        var versions: [String]
        var leftOut: [String]
        var byHistory: Bool
        var testDescription: String { name }
    }

    static let orders: [OrderCase] = [
        OrderCase(name: "names, current last", names: ["Model 10", "Model 2", "Model"], current: "Model 10", added: nil,
                  versions: ["Model", "Model 2", "Model 10"], leftOut: [], byHistory: false),
        OrderCase(name: "names, a draft after the current version", names: ["A", "B", "C"], current: "B", added: nil,
                  versions: ["A", "B"], leftOut: ["C"], byHistory: false),
        OrderCase(name: "no current version", names: ["B", "A"], current: nil, added: nil, versions: ["A", "B"], leftOut: [], byHistory: false),
        OrderCase(name: "history", names: ["L 1", "M 1"], current: "L 1", added: ["M 1": 0, "L 1": 1],
                  versions: ["M 1", "L 1"], leftOut: [], byHistory: true),
        OrderCase(name: "one commit added all: names decide", names: ["B", "A"], current: "B", added: ["A": 0, "B": 0],
                  versions: ["A", "B"], leftOut: [], byHistory: false),
        OrderCase(name: "ties by names, uncommitted last", names: ["C", "B", "A", "D"], current: "D", added: ["C": 0, "B": 1, "A": 1],
                  versions: ["C", "A", "B", "D"], leftOut: [], byHistory: true),
    ]

    @Test(arguments: orders)
    func inferredOrder(_ c: OrderCase) {
        let order = InferredOrder.make(names: c.names, current: c.current, addedOrder: c.added)
        #expect(order.versions == c.versions)
        #expect(order.leftOut == c.leftOut)
        #expect((order.evidence == .history) == c.byHistory)
    }

    /// `git log -z` fields are read by position: a path holding the commit marker or spaces is a path.
    @Test func logParsing() {
        let log = "\u{1}abc 2024-01-01T00:00:00Z\0\nA\0a b/\u{1}x.xcdatamodel/contents\0R100\0old/V.xcdatamodel/contents\0new/V.xcdatamodel/contents\0"
            + "\u{1}def 2023-01-01T00:00:00Z\0\nC075\0s/contents\0t/contents\0"
        let changes = LogChange.parse(Data(log.utf8))
        #expect(changes.map(\.path) == ["a b/\u{1}x.xcdatamodel/contents", "new/V.xcdatamodel/contents", "t/contents"])
        #expect(changes.map(\.isRename) == [false, true, false])
        #expect(changes.map(\.commit.commit) == ["abc", "abc", "def"])
        #expect(LogChange.parse(Data("\u{1}abc 2024\0\nR100\0only-one".utf8)).isEmpty)
    }
}
