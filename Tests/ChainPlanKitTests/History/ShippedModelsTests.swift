import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanHistory
@testable import ChainPlanPlanning
@testable import ChainPlanReaders

/// Reading what shipped from git (`--against`): real repositories made in temporary folders.
struct ShippedModelsTests {
    let git = Git.onPath()

    /// A repository in a new temporary folder; removed by the caller.
    final class Repo {
        let folder: URL
        let git: Git
        init(git: Git) throws {
            self.git = git
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-git-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try run("init", "-q")
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        @discardableResult
        func run(_ arguments: String...) throws -> String {
            let all = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"] + arguments
            return String(decoding: try git.run(all, in: folder).get(), as: UTF8.self)
        }

        func write(_ files: [RuleExample.File]) throws {
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            }
        }

        func commit(_ message: String, tag: String? = nil) throws {
            try run("add", "-A")
            try run("commit", "-q", "-m", message)
            if let tag { try run("tag", tag) }
        }

        var bundle: URL { folder.appendingPathComponent("Model.xcdatamodeld") }
        var spec: URL { folder.appendingPathComponent("chain.json") }
    }

    func findings(_ repo: Repo, against revision: String, input: URL? = nil) -> [Diagnostic] {
        var options = PlanOptions()
        options.baseDirectory = repo.folder
        options.against = revision
        options.git = git
        let planner = ChainPlanner(options: options)
        return planner.plan(ProjectLoader(options: options).load(inputAt: input ?? repo.spec)).report.diagnostics
    }

    @Test func readsTheBundleAsARevisionHeldIt() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]))
        try repo.commit("two versions", tag: "v1.0")
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.numericTitleWithBody]))
        try repo.commit("three versions")
        let read = try ShippedBundle.read(bundleAt: repo.bundle, revision: "v1.0", git: git).get()
        #expect(read.versionNames == ["V1", "V2"])
        #expect(read.currentVersion == "V2")
        #expect(read.version(named: "V2")?.path == "v1.0:Model.xcdatamodeld/V2.xcdatamodel/contents")
        #expect(read.version(named: "V2")?.model?.entities.map(\.name) == ["Note"])
        #expect(read.revision.commit.count == 40)
        // The work tree and the index are untouched: nothing to commit, nothing staged.
        #expect(try repo.run("status", "--porcelain").isEmpty)
        #expect(findings(repo, against: "v1.0").filter { $0.code.rawValue.hasPrefix("CP40") }.isEmpty)
    }

    /// Each change since the release, as `validate --against v1.0` reports it.
    @Test(arguments: [
        ("V1 gains an attribute", [RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody], [DiagnosticCode.shippedVersionChanged]),
        ("V2, current at the release, changes type", [RuleExampleFixtures.note, RuleExampleFixtures.numericTitleWithBody], [.shippedVersionChanged]),
        ("V1 moves in the diagram", [RuleExampleFixtures.note.replacingOccurrences(of: "<entity name=\"Note\">", with: "<entity name=\"Note\" positionX=\"1\">"),
                                      RuleExampleFixtures.noteWithBody], [.cosmeticEditOfShippedVersion]),
        ("nothing shipped changes", [RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody], []),
    ])
    func changesSinceTheRelease(_ what: String, _ versions: [String], _ expected: [DiagnosticCode]) throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]))
        try repo.commit("release", tag: "v1.0")
        try repo.write(RuleExampleFixtures.project(versions))
        let found = findings(repo, against: "v1.0").filter { $0.code.rawValue.hasPrefix("CP40") }
        #expect(found.map(\.code) == expected, "\(what)")
        if expected == [.shippedVersionChanged] {
            #expect(found[0].message.contains("134130"), "\(what)")
            #expect(found[0].message.contains("v1.0 ("), "\(what)")
        }
    }

    @Test func aShippedVersionDeletedOrRenamed() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]))
        try repo.commit("release", tag: "v1.0")
        try repo.run("mv", "Model.xcdatamodeld/V1.xcdatamodel", "Model.xcdatamodeld/Model 1.xcdatamodel")
        try repo.write([RuleExampleFixtures.spec(["Model 1", "V2"])])
        #expect(findings(repo, against: "v1.0").filter { $0.code.rawValue.hasPrefix("CP40") }.map(\.code) == [.shippedVersionRenamed])
        try FileManager.default.removeItem(at: repo.bundle.appendingPathComponent("Model 1.xcdatamodel"))
        try repo.write([RuleExampleFixtures.spec(["V2"])])
        let missing = findings(repo, against: "v1.0").filter { $0.code.rawValue.hasPrefix("CP40") }
        #expect(missing.map(\.code) == [.shippedVersionMissing])
        #expect(missing.first?.versions == ["V1"])
    }

    @Test func theCurrentVersionMovedBack() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]))
        try repo.commit("release", tag: "v1.0")
        try repo.write([RuleExampleFixtures.current("V1")])
        let found = findings(repo, against: "v1.0", input: repo.bundle).filter { $0.code == .currentVersionMovedBack }
        #expect(found.map(\.versions) == [["V1", "V2"]])
    }

    @Test func aBundleNewSinceTheRevision() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write([RuleExample.File("README.md", "no model yet\n")])
        try repo.commit("start", tag: "v0")
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note]))
        #expect(findings(repo, against: "v0").filter { $0.code.rawValue.hasPrefix("CP40") }.map(\.code) == [.bundleNotAtRevision])
    }

    /// A shipped mapping model re-made from other models (its snapshots' hashes moved) is CP410;
    /// re-saved with the same hashes (other base64 wrapping), it is not.
    @Test func aShippedMappingModelRemadeForOtherHashes() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        var snapshot = SampleSnapshot()
        let shipped = snapshot.build()
        let mapping = "V1ToV2.xcmappingmodel/xcmapping.xml"
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
            + [RuleExample.File(mapping, TemporaryMappingFolder.document(source: shipped, destination: shipped))])
        try repo.commit("release", tag: "v1.0")
        let resaved = TemporaryMappingFolder.document(source: shipped, destination: shipped, sourceBase64: Data(shipped).base64EncodedString())
        try repo.write([RuleExample.File(mapping, resaved)])
        #expect(findings(repo, against: "v1.0").filter { $0.code == .shippedMappingModelChanged }.isEmpty)

        var edited = SampleSnapshot()
        edited.optionalValue = .bool(false)
        try repo.write([RuleExample.File(mapping, TemporaryMappingFolder.document(source: edited.build(), destination: shipped))])
        let found = findings(repo, against: "v1.0").filter { $0.code == .shippedMappingModelChanged }
        #expect(found.count == 1)
        #expect(found.first?.message.contains("its source hashes changed") == true)
        #expect(found.first?.message.contains("destination") == false)
        #expect(found.first?.message.contains("134140") == true)
        #expect(found.first?.location?.file.hasSuffix(mapping) == true)
    }

    /// Revisions from a pull request are hostile: each is CP405 (exit 2), never run as an option,
    /// a path or through a shell.
    @Test(arguments: ["--output=x", "-h", "HEAD:../..", "$(touch pwned)", "v1.0 HEAD", "", "no-such-tag", "v1.0\u{0}", String(repeating: "a", count: 300)])
    func hostileRevisions(_ revision: String) throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note]))
        try repo.commit("release", tag: "v1.0")
        let found = findings(repo, against: revision)
        #expect(found.filter { $0.code == .unreadableRevision }.count == 1, "\(revision.debugDescription)")
        #expect(found.hasUnusableInput)
        #expect(!FileManager.default.fileExists(atPath: repo.folder.appendingPathComponent("pwned").path))
        #expect(!FileManager.default.fileExists(atPath: repo.folder.appendingPathComponent("x").path))
    }

    @Test func noGitNoWorkTreeAndAShallowClone() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note]))
        try repo.commit("one", tag: "v1.0")
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]))
        try repo.commit("two")

        let noGit = ShippedBundle.read(bundleAt: repo.bundle, revision: "v1.0", git: Git(executable: nil))
        #expect(noGit.failureValue == .gitNotInstalled)

        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-nogit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        let notATree = ShippedBundle.read(bundleAt: outside.appendingPathComponent("Model.xcdatamodeld"), revision: "HEAD", git: git)
        if case .notAWorkTree = notATree.failureValue {} else { Issue.record("expected notAWorkTree, got \(notATree)") }

        let clone = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-shallow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: clone) }
        _ = try git.run(["clone", "-q", "--depth", "1", "file://" + repo.folder.path, clone.path], in: repo.folder).get()
        let first = try repo.run("rev-list", "--max-parents=0", "HEAD").trimmingCharacters(in: .newlines)
        let shallow = ShippedBundle.read(bundleAt: clone.appendingPathComponent("Model.xcdatamodeld"), revision: first, git: git)
        #expect(shallow.failureValue == .shallowClone(first))
        #expect(RevisionProblem.shallowClone(first).reason.contains("fetch-depth: 0"))
    }

    /// Symbolic links in the revision's tree are not followed or written.
    @Test func symbolicLinksAtTheRevisionAreLeftOut() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(RuleExampleFixtures.project([RuleExampleFixtures.note]))
        try FileManager.default.createSymbolicLink(atPath: repo.bundle.appendingPathComponent("V2.xcdatamodel").path, withDestinationPath: "/etc")
        try repo.commit("a link", tag: "v1.0")
        let read = try ShippedBundle.read(bundleAt: repo.bundle, revision: "v1.0", git: git).get()
        #expect(read.versionNames == ["V1"])
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
