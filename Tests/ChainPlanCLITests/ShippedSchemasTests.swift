import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanCore
@testable import ChainPlanHistory

/// SwiftData schemas that shipped: against a git revision (`--against`) and against `chain.lock`,
/// as for a bundle's versions (reference swiftdata §8 item 6).
struct ShippedSchemasTests {
    let git = Git.onPath()
    static let title = "var title: String = \"\""
    static let body = title + "\nvar body: String?"
    static let plan = ".lightweight(fromVersion: V1.self, toVersion: V2.self)"

    /// A repository whose `Models/Models.swift` holds V1 and V2 (tagged `shipped`).
    func repository() throws -> TestRepository {
        let repo = try TestRepository(git: git, prefix: "chainplan-shipped-swift")
        try repo.write([models(v1: Self.title)])
        try repo.commit("release", tag: "shipped")
        return repo
    }

    func models(v1: String, extra: [(name: String, version: String, note: String)] = []) -> RuleExample.File {
        let file = RuleExampleFixtures.swiftData([("V1", "1.0.0", v1), ("V2", "2.0.0", Self.body)] + extra, stages: Self.plan)
        return RuleExample.File("Models/Models.swift", file.text)
    }

    @Test(arguments: [
        ("unchanged", title, [String]()),
        ("V1 gains a property after it shipped", title + "\nvar pinned: Bool = false", ["CP401"]),
    ])
    func againstARevision(_ name: String, _ v1: String, _ codes: [String]) async throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try repository()
        defer { try? FileManager.default.removeItem(at: repo.folder) }
        try repo.write([models(v1: v1)])
        let run = await OutputCapture.run(["validate", repo.folder.appendingPathComponent("Models").path, "--against", "shipped", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.error)")
        let findings = report["diagnostics"] as? [[String: Any]] ?? []
        #expect(findings.compactMap { $0["code"] as? String }.filter { $0.hasPrefix("CP4") } == codes, "\(name): \(findings)")
        if !codes.isEmpty {
            let message = findings.first { $0["code"] as? String == "CP401" }?["message"] as? String ?? ""
            #expect(message.contains("134504") && message.contains("'Note.pinned' (added)"), "\(message)")
            // At the added property: line 7 of the file that declares the class.
            let finding = findings.first { $0["code"] as? String == "CP401" }
            #expect((finding?["file"] as? String)?.hasSuffix("Models/Models.swift") == true, "\(String(describing: finding))")
            #expect(finding?["line"] as? Int == 7, "\(String(describing: finding))")
        }
    }

    /// Sources at the top of the work tree, given as the folder or as the one file: read there at
    /// the revision too (the top was "outside the work tree").
    @Test(arguments: [".", "Models.swift"])
    func sourcesAtTheTopOfTheWorkTree(_ input: String) async throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try TestRepository(git: git, prefix: "chainplan-shipped-swift")
        defer { try? FileManager.default.removeItem(at: repo.folder) }
        let shipped = RuleExampleFixtures.swiftData([("V1", "1.0.0", Self.title), ("V2", "2.0.0", Self.body)], stages: Self.plan).text
        try repo.write([RuleExample.File("Models.swift", shipped), RuleExample.File("README.md", "models\n")])
        try repo.commit("release", tag: "shipped")
        try repo.write([RuleExample.File("Models.swift", shipped.replacingOccurrences(of: "var title: String = \"\"\n", with: "var title: String = \"\"\n        var pinned: Bool = false\n"))])
        let run = await OutputCapture.run(["validate", repo.folder.appendingPathComponent(input).path, "--against", "shipped", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.error)")
        let codes = (report["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains("CP401"), "\(input): \(codes)")
        #expect(!codes.contains("CP405"), "\(input): \(codes)")
    }

    /// A payload type the schemas share, edited after they shipped: their checksums do not move
    /// (no CP401), but their stores hold the old payloads: one CP613 naming both schemas.
    @Test func aSharedCodablePayloadEditedAfterItShipped() async throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try TestRepository(git: git, prefix: "chainplan-shipped-swift")
        defer { try? FileManager.default.removeItem(at: repo.folder) }
        let property = "@Attribute(.codable) var settings: Settings?"
        let models = RuleExampleFixtures.swiftData([("V1", "1.0.0", property), ("V2", "2.0.0", property + "\nvar title: String?")], stages: Self.plan).text
        try repo.write([RuleExample.File("Models/Models.swift", models + "struct Settings: Codable {\n    var theme: String\n}\n")])
        try repo.commit("release", tag: "shipped")
        try repo.write([RuleExample.File("Models/Models.swift", models + "struct Settings: Codable {\n    var theme: String\n    var size: Int\n}\n")])
        let run = await OutputCapture.run(["validate", repo.folder.appendingPathComponent("Models").path, "--against", "shipped", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.error)")
        let findings = (report["diagnostics"] as? [[String: Any]] ?? []).filter { ($0["code"] as? String).map { $0.hasPrefix("CP4") || $0 == "CP613" } ?? false }
        #expect(findings.compactMap { $0["code"] as? String } == ["CP613"], "\(findings)")
        let message = findings.first?["message"] as? String ?? ""
        #expect(message.contains("+ 'size: Int'") && message.contains("in 'V1', 'V2' since shipped"), "\(message)")
    }

    @Test func sourcesNotAtTheRevision() async throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try TestRepository(git: git, prefix: "chainplan-shipped-swift")
        defer { try? FileManager.default.removeItem(at: repo.folder) }
        try repo.write([RuleExample.File("README.md", "empty\n")])
        try repo.commit("start", tag: "shipped")
        try repo.write([models(v1: Self.title)])
        let run = await OutputCapture.run(["validate", repo.folder.appendingPathComponent("Models").path, "--against", "shipped"])
        #expect(run.output.contains("CP409"), "\(run.output)")
    }

    /// A file at the revision that the work tree's reader would refuse (not UTF-8 here) makes the
    /// revision unreadable; skipping it would make its schemas look gone (CP402).
    @Test func anUnreadableFileAtTheRevisionIsReported() async throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try repository()
        defer { try? FileManager.default.removeItem(at: repo.folder) }
        let bad = repo.folder.appendingPathComponent("Models/Extra.swift")
        try Data([0x2F, 0x2F, 0xFF, 0xFE, 0x0A]).write(to: bad)
        try repo.commit("binary", tag: "broken")
        try FileManager.default.removeItem(at: bad)
        let run = await OutputCapture.run(["validate", repo.folder.appendingPathComponent("Models").path, "--against", "broken"])
        #expect(run.output.contains("CP405") && run.output.contains("not UTF-8"), "\(run.output)")
        #expect(!run.output.contains("CP402"), "\(run.output)")
    }

    @Test func theLockRecordsSchemaChecksums() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-lock-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Models"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Models")
        try Data(models(v1: Self.title).text.utf8).write(to: sources.appendingPathComponent("Models.swift"))
        let locked = await OutputCapture.run(["lock", sources.path])
        #expect(locked.status == 0, "\(locked.error)")
        let lock = try String(contentsOf: folder.appendingPathComponent("chain.lock"), encoding: .utf8)
        #expect(lock.contains("version \"V1\""))
        #expect(!lock.contains("version \"V2\""), "the app's schema has not shipped yet")
        #expect(await OutputCapture.run(["validate", sources.path]).status == 0)
        try Data(models(v1: Self.title + "\nvar pinned: Bool = false").text.utf8).write(to: sources.appendingPathComponent("Models.swift"))
        let edited = await OutputCapture.run(["validate", sources.path])
        #expect(edited.status == 1)
        #expect(edited.output.contains("CP401") && edited.output.contains("134504"), "\(edited.output)")
    }
}
