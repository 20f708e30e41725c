import ArgumentParser
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

/// Issue 19: `--no-color` and `--format json` on every command, and findings scoped to what
/// the command was asked about (`paths --from`, `graph --from`, a dry run with an unusable store).
struct ScopingAndCommonOptionsTests {
    static let chains = CLITests.root.appendingPathComponent("Chains")
    static let failing = chains.appendingPathComponent("events-two-passes/chain.json").path
    static let grocery = chains.appendingPathComponent("grocery-dude/chain.json").path

    /// The arguments each command needs besides the options under test (parsing only).
    static let required: [String: [String]] = [
        "validate": [], "paths": [], "explain": ["chain.json", "A", "B"], "passes": ["chain.json", "A", "B"], "stage": [], "graph": [],
        "report": [], "inspect": ["M.xcdatamodeld"], "hash": ["M.xcdatamodeld"], "textconv": ["contents"], "init": ["M.xcdatamodeld"],
        "rules": [], "lock": [], "history": [], "prune": ["--oldest", "A"], "dry-run": ["--store", "s.sqlite"], "fixture": ["--model-version", "A", "-o", "x.sqlite"],
    ]

    static let commandNames = ChainPlan.configuration.subcommands.compactMap { $0.configuration.commandName }

    @Test(arguments: commandNames)
    func everyCommandTakesNoColorAndFormatJSON(_ name: String) throws {
        let extra = try #require(Self.required[name], "add '\(name)' to the table of required arguments")
        for options in [["--no-color"], ["--format", "json"], ["--no-color", "--format", "json"]] {
            do {
                let command = try ChainPlan.parseAsRoot([name] + extra + options)
                #expect(type(of: command).configuration.commandName == name)
            } catch {
                Issue.record("chainplan \(name) \(options.joined(separator: " ")): \(ChainPlan.message(for: error))")
            }
        }
    }

    @Test func initLockAndFixtureWriteAJSONDocument() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let run = await OutputCapture.run(["fixture", Self.grocery, "--model-version", "Model 2", "--rows", "3", "-o", store, "--format", "json"])
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["command"] as? String == "fixture")
        #expect(document["wrote"] as? String == store)
        #expect(document["version"] as? String == "Model 2")
        #expect(run.error.isEmpty)
    }

    func pathsJSON(_ arguments: [String]) async throws -> (status: Int32, codes: [String], error: String) {
        let run = await OutputCapture.run(arguments + ["--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.error)")
        let codes = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        return (run.status, codes, run.error)
    }

    /// The target's path takes no step: the failing step before it is not its concern.
    @Test func pathsFromReportsOnlyItsPath() async throws {
        let all = try await pathsJSON(["paths", Self.failing])
        #expect(all.status == 1)
        #expect(!all.codes.isEmpty)
        let target = try await pathsJSON(["paths", Self.failing, "--from", "Events 2"])
        #expect(target.status == 0)
        // The example's hand-written mapping models lack snapshots (CP120, a note there): about
        // files, not steps, so they stay on every path.
        #expect(target.codes.allSatisfy { $0 == "CP120" })
        #expect(target.error.contains("not on the path from 'Events 2' not reported (--from)"))
        let start = try await pathsJSON(["paths", Self.failing, "--from", "Events"])
        #expect(start.status == 1)
        #expect(start.codes == all.codes)
    }

    @Test func pathScopeFollowsTheChain() {
        let step = { (from: String, to: String) in ChainReport.Step(from: from, to: to) }
        let diagnostics = [Diagnostic(.couldFailValidation, "x", at: nil, versions: ["A", "B"]), Diagnostic(.inferredOrder, "y", at: nil, versions: [])]
        let report = ChainReport(spec: "chain.json", model: nil, target: "C", versions: ["A", "B", "C"], steps: [step("A", "B"), step("B", "C")],
                                 paths: [], pathsAbbreviated: nil, diagnostics: diagnostics, summary: .init(diagnostics: diagnostics))
        #expect(PathScope.versions(from: "A", in: report) == ["A", "B", "C"])
        #expect(PathScope.versions(from: "B", in: report) == ["B", "C"])
        let scoped = PathScope.scoped(report, toPathFrom: "B")
        #expect(scoped.leftOut == 1)
        #expect(scoped.report.diagnostics.map(\.code) == [.inferredOrder])
        let drawn = PathScope.restricted(report, toPathFrom: "B")
        #expect(drawn.versions == ["B", "C"])
        #expect(drawn.steps.map(\.from) == ["B"])
    }

    @Test func graphFromDrawsOnlyThePath() async throws {
        let run = await OutputCapture.run(["graph", Self.grocery, "--from", "Model 3", "--format", "json"])
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let nodes = (document["nodes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(nodes == ["Model 3", "Model 4"])
    }

    /// A mistyped store: CP300 alone, not the chain's findings after it.
    @Test func dryRunWithAnUnusableStoreReportsOnlyTheStore() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-missing-\(UUID().uuidString).sqlite").path
        let run = try await pathsJSON(["dry-run", Self.grocery, "--store", missing])
        #expect(run.status == 2)
        #expect(run.codes == ["CP300"])
        #expect(run.error.contains("finding about it are not reported"))
    }
}

extension ScopingAndCommonOptionsTests {
    @Test func explainChangesOnly() async throws {
        let spec = Self.chains.appendingPathComponent("notas/chain.json").path
        let full = await OutputCapture.run(["explain", spec, "Notas", "Notas 3"])
        let changes = await OutputCapture.run(["explain", spec, "Notas", "Notas 3", "--changes-only"])
        #expect(full.status == changes.status)
        #expect(full.output.contains("inferred entity mappings:"))
        #expect(!changes.output.contains("inferred entity mappings:"))
        #expect(changes.output.contains("changes:\n"))
        #expect(changes.output.hasPrefix(full.output.components(separatedBy: "\ninferred entity mappings:").first ?? "-"))
    }
}

extension ScopingAndCommonOptionsTests {
    struct TypoCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let typoCases: [TypoCase] = [
        TypoCase(arguments: ["valdate"], message: "unknown command 'valdate'; did you mean 'validate'?"),
        TypoCase(arguments: ["Validate"], message: "unknown command 'Validate'; did you mean 'validate'?"),
        TypoCase(arguments: ["PATHS", "x.json"], message: "did you mean 'paths'?"),
        TypoCase(arguments: ["zzzzzzzzzz"], message: "unknown command 'zzzzzzzzzz'; 'chainplan --help' lists them"),
        TypoCase(arguments: ["paths", failing, "--from", "events 2"], message: "version 'events 2' is not in the chain; did you mean 'Events 2'?"),
        TypoCase(arguments: ["graph", failing, "--from", "EVENTS"], message: "did you mean 'Events'"),
        TypoCase(arguments: ["fixture", failing, "--model-version", "events 2", "-o", "/nonexistent-dir/x.sqlite"], message: "the bundle has no version 'events 2'; did you mean 'Events 2'?"),
    ]

    @Test(arguments: typoCases)
    func typoHelp(_ c: TypoCase) async {
        let run = await OutputCapture.run(c.arguments)
        #expect(run.status == 2)
        #expect(run.error.contains(c.message), "\(run.error)")
    }
}
