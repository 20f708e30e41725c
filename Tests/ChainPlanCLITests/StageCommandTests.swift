import Foundation
import ChainPlanTestSupport
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

/// `chainplan stage` end to end on fixtures: the usage errors and the spec's `stages` hint.
struct StageCommandTests {
    static func run(_ arguments: [String], in directory: URL) async -> (Int32, String) {
        let out = directory.appendingPathComponent("out-\(UUID().uuidString)")
        let status = await ChainPlan.run(arguments: arguments + ["-o", out.path])
        return (status, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
    }

    /// Checksums are computed from the model files; a version whose hash rests on an unverified
    /// input (AllFields has a derived attribute) gets none, and Swift is then refused, never
    /// written with an uncertain constant.
    @Test func swiftWithoutChecksumsIsAUsageError() async throws {
        let bundle = CLITests.root.appendingPathComponent("Tests/Fixtures/Model/AllFields.xcdatamodeld").path
        #expect(await ChainPlan.run(arguments: ["stage", bundle, "--format", "swift", "-o", "/dev/null"]) == 2)
        #expect(await ChainPlan.run(arguments: ["stage", bundle, "-o", "/dev/null"]) == 0)
        // Models whose hashes are all verified get computed checksums: Swift is written.
        let spec = CLITests.root.appendingPathComponent("Chains/notas/chain.json").path
        let (status, swift) = await Self.run(["stage", spec, "--format", "swift"], in: FileManager.default.temporaryDirectory)
        #expect(status == 0)
        #expect(swift.contains("static let notas = \""))
    }

    /// A step listed under the spec's (or .chainplan.yml's) `stages` becomes a custom stage with
    /// handlers, in `chainplan stage` and in `chainplan report`.
    @Test func specHintMarksACustomStage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-hint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let example = CLITests.root.appendingPathComponent("Chains/corestore-tree")
        try FileManager.default.copyItem(at: example.appendingPathComponent("MyAppModel.xcdatamodeld"), to: directory.appendingPathComponent("MyAppModel.xcdatamodeld"))
        let spec = directory.appendingPathComponent("chain.json")
        try Data(#"{"model": "MyAppModel.xcdatamodeld", "chain": ["MyAppModel", "MyAppModelV2", "MyAppModelV3", "MyAppModelV4"], "stages": ["MyAppModelV2 -> MyAppModelV3"]}"#.utf8).write(to: spec)
        let plan = try #require(ChainPlanner().stagePlan(inputAt: spec, identities: { _ in nil }).plan)
        let custom = try #require(plan.stages.first { $0.kind == .custom })
        #expect(custom.versions == ["MyAppModelV2", "MyAppModelV3"])
        #expect(custom.handlers)
        #expect(plan.starts.allSatisfy { $0.error == nil })
        // The same hint in .chainplan.yml, through the command.
        try Data(#"{"model": "MyAppModel.xcdatamodeld", "chain": ["MyAppModel", "MyAppModelV2", "MyAppModelV3", "MyAppModelV4"]}"#.utf8).write(to: spec)
        try Data("stages:\n  - \"MyAppModelV3 -> MyAppModelV4\"\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        let (status, json) = await Self.run(["stage", spec.path, "--format", "json"], in: directory)
        #expect(status == 0)
        let configured = try RuleCatalogue.jsonDecoder().decode(StagePlan.self, from: Data(json.utf8))
        #expect(configured.stages.filter { $0.kind == .custom }.map(\.versions) == [["MyAppModelV3", "MyAppModelV4"]])
        // `chainplan report` shows the same plan, the configured hint included (and where it is written).
        let (reported, markdown) = await Self.run(["report", spec.path, "--format", "md"], in: directory)
        #expect(reported == 0)
        #expect(markdown.contains("| 2 | custom | `MyAppModelV3` → `MyAppModelV4` | data work | marked as a custom stage in the configuration |"), "\(markdown)")
        try FileManager.default.removeItem(at: directory.appendingPathComponent(".chainplan.yml"))
        // A malformed hint is CP100 at its place.
        try Data(#"{"chain": ["A", "B"], "stages": ["A to B"]}"#.utf8).write(to: spec)
        let read = SpecReader(codes: PlanningRules.all).read(fileAt: spec, displayPath: "chain.json")
        #expect(read.diagnostics.map(\.code) == [.unreadableSpec])
        #expect(read.diagnostics.first?.location?.column == 34)
    }
}

extension CorpusTests {
/// `chainplan stage` end to end: a real model history with the checksums Apple's momc wrote
/// (CoreDataPlus SampleModel3 in the shared corpus), its plan audited back with `--check`, the
/// Swift code type-checked, and a stage list with a mistake caught.
struct StageCorpusTests {
    static let sample = SharedCorpus.corpus.appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources/SampleModel3")

    @Test
    func realChecksumsPlanAuditAndCode() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-stage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The bundle's current version is its oldest, so the bundle alone is a one-version chain:
        // a spec gives the three versions, as Docs/staged-migration.md shows.
        let chain = directory.appendingPathComponent("chain.json")
        let model = Self.sample.appendingPathComponent("SampleModel3.xcdatamodeld").path
        try Data(#"{"chain": ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"], "model": "\#(model)"}"#.utf8).write(to: chain)
        let bundle = chain.path
        let momd = Self.sample.appendingPathComponent("Fixtures/SampleModel3.momd").path
        let (status, json) = await StageCommandTests.run(["stage", bundle, "--allow-outside", "--momd", momd, "--format", "json"], in: directory)
        #expect(status == 0)
        let plan = try RuleCatalogue.jsonDecoder().decode(StagePlan.self, from: Data(json.utf8))
        #expect(plan.stages.map(\.kind) == [.lightweight])
        #expect(plan.stages.first?.checksums.first == "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
        #expect(plan.starts.map(\.error) == [nil, nil, nil])
        // The plan's own JSON passes the audit.
        let planFile = directory.appendingPathComponent("stages.json")
        try Data(json.utf8).write(to: planFile)
        let (checked, audit) = await StageCommandTests.run(["stage", bundle, "--allow-outside", "--momd", momd, "--check", planFile.path], in: directory)
        #expect(checked == 0, "\(audit)")
        #expect(audit.contains("all pass"))
        // The app model left out: every store fails with 134504 (CP504).
        let checksums = try #require(plan.stages.first?.checksums)
        let broken = directory.appendingPathComponent("broken.json")
        let list = "[{\"kind\": \"lightweight\", \"checksums\": [\"\(checksums[0])\", \"\(checksums[1])\"]}]"
        try Data(list.utf8).write(to: broken)
        let (failed, findings) = await StageCommandTests.run(["stage", bundle, "--allow-outside", "--momd", momd, "--check", broken.path], in: directory)
        #expect(failed == 1)
        #expect(findings.contains("[CP504]"), "\(findings)")
        // Docs/staged-migration.md shows this audit: its output there is this run's, byte for byte.
        let shown = try #require(findings.split(separator: "\n").first.flatMap { $0.dropFirst("Audit of ".count).components(separatedBy: " against").first })
        let readme = try String(contentsOf: CLITests.root.appendingPathComponent("Docs/staged-migration.md"), encoding: .utf8)
        let command = "$ chainplan stage chain.json --momd SampleModel3.momd --check broken.json\n"
        let example = try #require(readme.components(separatedBy: command).dropFirst().first?.components(separatedBy: "```").first)
        #expect(findings.replacingOccurrences(of: shown, with: "broken.json") == example)
        // The Swift code: real checksums, compiles against the Core Data stub, and audits clean.
        let (written, swift) = await StageCommandTests.run(["stage", bundle, "--allow-outside", "--momd", momd, "--format", "swift"], in: directory)
        #expect(written == 0)
        #expect(swift.contains("static let sampleModel3 = \"u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=\""))
        #expect(try StageCodeTests.typecheck(swift, name: "SampleModel3Staged") == nil)
        let swiftFile = directory.appendingPathComponent("Stages.swift")
        try Data(swift.utf8).write(to: swiftFile)
        let (scraped, scrapedAudit) = await StageCommandTests.run(["stage", bundle, "--allow-outside", "--momd", momd, "--check", swiftFile.path], in: directory)
        #expect(scraped == 0, "\(scrapedAudit)")
        // A stale literal in the Swift source is CP506.
        try Data(swift.replacingOccurrences(of: "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=", with: "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0iK=").utf8).write(to: swiftFile)
        let (stale, staleAudit) = await StageCommandTests.run(["stage", bundle, "--allow-outside", "--momd", momd, "--check", swiftFile.path], in: directory)
        #expect(stale == 1)
        #expect(staleAudit.contains("[CP506]") && staleAudit.contains("[CP505]"), "\(staleAudit)")
    }

    /// Swift needs checksums: without --momd (and without the hash engine) it is a usage error, never placeholder constants.
}
}

