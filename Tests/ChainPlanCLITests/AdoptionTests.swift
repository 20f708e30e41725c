import Foundation
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

/// Reaching a green gate on an existing history (issue 19, part 2): baselines, `--since`,
/// severity floors and `init --migrator`.
struct AdoptionTests {
    static let failing = CLITests.root.appendingPathComponent("Chains/events-two-passes/chain.json").path

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-adopt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// A failing chain: recorded in a baseline, the same chain passes against it, every format
    /// agrees, and the baseline is stable (written twice, byte-identical).
    @Test func aBaselineTurnsAFailingHistoryGreen() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let baseline = directory.appendingPathComponent("baseline.json")
        let report = directory.appendingPathComponent("report.json")
        #expect(await ChainPlan.run(arguments: ["validate", Self.failing, "--write-baseline", baseline.path, "--format", "json", "-o", report.path]) == 1)
        let recorded = try json(baseline)
        #expect(recorded["schemaVersion"] as? Int == 1)
        let findings = try #require(recorded["findings"] as? [[String: Any]])
        let unfiltered = try #require(try json(report)["diagnostics"] as? [[String: Any]])
        #expect(findings.count == unfiltered.count)
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { Set($0.keys) == ["code", "versions", "subject", "message"] })

        let again = directory.appendingPathComponent("again.json")
        #expect(await ChainPlan.run(arguments: ["validate", Self.failing, "--write-baseline", again.path, "-o", directory.appendingPathComponent("t").path]) == 1)
        #expect(try Data(contentsOf: again) == Data(contentsOf: baseline))

        #expect(await ChainPlan.run(arguments: ["validate", Self.failing, "--baseline", baseline.path, "--format", "json", "-o", report.path]) == 0)
        let filtered = try json(report)
        #expect((filtered["diagnostics"] as? [Any])?.isEmpty == true)
        #expect((filtered["summary"] as? [String: Any])?["verdict"] as? String == "pass")
        for format in ["sarif", "junit", "github", "text"] {
            #expect(await ChainPlan.run(arguments: ["validate", Self.failing, "--baseline", baseline.path, "--format", format,
                                                    "-o", directory.appendingPathComponent("out.\(format)").path]) == 0)
        }
    }

    /// Identity is code, versions and quoted names: a moved line or reworded text still matches,
    /// a finding about another property does not; an entry matches as many findings as it records.
    @Test func identityIgnoresLinesAndWording() {
        let recorded = Diagnostic(.notInferable, "step 'A' → 'B' removes attribute 'Order.total'",
                                  at: SourceLocation(file: "Model.xcdatamodeld/B.xcdatamodel/contents", line: 10), versions: ["A", "B"])
        let moved = Diagnostic(.notInferable, "the step 'A' → 'B' now drops attribute 'Order.total' (reworded)",
                               at: SourceLocation(file: "Model.xcdatamodeld/B.xcdatamodel/contents", line: 99), versions: ["A", "B"])
        let other = Diagnostic(.notInferable, "step 'A' → 'B' removes attribute 'Order.note'",
                               at: SourceLocation(file: "Model.xcdatamodeld/B.xcdatamodel/contents", line: 10), versions: ["A", "B"])
        let baseline = Baseline(diagnostics: [recorded])
        #expect(baseline.findings.map(\.subject) == [["A", "B", "Order.total"]])
        let applied = baseline.apply(to: [moved, other, moved])
        #expect(applied.suppressed == 1)
        #expect(applied.diagnostics == [other, moved])
        #expect(Baseline.quotedNames(in: "it's 'X' and the store's 'Y'") == ["X", "Y"])
    }

    @Test func unusableInputIsNeverBaselined() {
        let broken = Diagnostic(.unreadableSpec, "spec 'chain.json' is not valid JSON", at: SourceLocation(file: "chain.json", line: 1))
        #expect(Baseline(diagnostics: [broken]).findings.isEmpty)
        #expect(Baseline(diagnostics: []).apply(to: [broken]).diagnostics == [broken])
    }

    struct FilterCase: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        var testDescription: String { name }
    }

    static let filterCases: [FilterCase] = [
        FilterCase(name: "a missing baseline is a usage error", arguments: ["--baseline", "/nonexistent/baseline.json"], status: 2),
        FilterCase(name: "--since an unknown version is a usage error", arguments: ["--since", "Nope"], status: 2),
        FilterCase(name: "--since the newest version leaves nothing about steps", arguments: ["--since", "Events 2"], status: 0),
        FilterCase(name: "--since the oldest version keeps the failing steps", arguments: ["--since", "Events"], status: 1),
        FilterCase(name: "--min-severity error keeps errors", arguments: ["--min-severity", "error"], status: 1),
        FilterCase(name: "--quiet keeps errors", arguments: ["--quiet"], status: 1),
        FilterCase(name: "an unknown severity is a usage error", arguments: ["--min-severity", "fatal"], status: 2),
    ]

    @Test(arguments: filterCases)
    func filters(_ item: FilterCase) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.json")
        #expect(await ChainPlan.run(arguments: ["validate", Self.failing, "--format", "json", "-o", out.path] + item.arguments) == item.status)
        if item.status != 2 {
            let document = try json(out)
            let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
            if item.arguments.contains("--quiet") || item.arguments.contains("--min-severity") {
                #expect(diagnostics.allSatisfy { $0["severity"] as? String == "error" })
            }
        }
    }

    struct MigratorCase: Sendable, CustomTestStringConvertible {
        var migrator: String
        var file: String
        var expected: [String]
        var testDescription: String { "\(migrator) → \(file)" }
    }

    static let migratorCases: [MigratorCase] = [
        MigratorCase(migrator: "core-data", file: "chain.yaml", expected: [
            "# Generated by chainplan init --migrator core-data.",
            "# Core Data (direct, NSPersistentContainer): every older store migrates straight to the current version in one step; the empty chain says so.",
            "model: \"Model.xcdatamodeld\"", "chain: []"]),
        MigratorCase(migrator: "corestore", file: "chain.yaml", expected: [
            "# Generated by chainplan init --migrator corestore.",
            "# CoreStore (progressive): stores migrate one version at a time, oldest first; each consecutive pair is a step.",
            "# Review the order (oldest first), then commit.",
            "model: \"Model.xcdatamodeld\"", "chain:", "  - \"Model\"", "  - \"Model 2\"", "  - \"Model 3\"", "  - \"Model 4\""]),
        MigratorCase(migrator: "staged", file: "chain.yaml", expected: [
            "# Generated by chainplan init --migrator staged.",
            "# Staged migration (NSStagedMigrationManager): each consecutive pair is one stage, lightweight or custom.",
            "# Review the order (oldest first), then commit.",
            "model: \"Model.xcdatamodeld\"", "chain:", "  - \"Model\"", "  - \"Model 2\"", "  - \"Model 3\"", "  - \"Model 4\""]),
        MigratorCase(migrator: "core-data", file: "chain.json", expected: [
            "{", "  \"chain\" : [", "", "  ],", "  \"model\" : \"Model.xcdatamodeld\"", "}"]),
    ]

    /// `init --migrator` writes the spec that analyses that migrator, and the spec validates.
    @Test(arguments: migratorCases)
    func initWritesTheMigratorsSpec(_ item: MigratorCase) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Model.xcdatamodeld")
        try FileManager.default.copyItem(at: CLITests.root.appendingPathComponent("Chains/grocery-dude/Model.xcdatamodeld"), to: bundle)
        let spec = directory.appendingPathComponent(item.file)
        #expect(await ChainPlan.run(arguments: ["init", bundle.path, "--migrator", item.migrator, "-o", spec.path]) == 0)
        let text = try String(contentsOf: spec, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.dropLast()) == item.expected || lines == item.expected, "\(text)")
        #expect(await ChainPlan.run(arguments: ["validate", spec.path, "-o", directory.appendingPathComponent("out.txt").path]) != 2)
    }
}
