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

/// Runs commands in-process, output redirected to files with `-o`.
struct CLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let specs = root.appendingPathComponent("Tests/Fixtures/Specs")

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-cli-\(UUID().uuidString)-\(name)")
    }

    func write(_ text: String, name: String) throws -> URL {
        let url = temporaryFile(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    struct ExitCase: CustomTestStringConvertible, Sendable {
        var name: String
        var spec: String
        var extension_: String
        var arguments: [String]
        var status: Int32
        var testDescription: String { name }
    }

    /// A bare chain without a bundle beside it is never clean: its steps were not classified (CP119).
    static let exitCases: [ExitCase] = [
        ExitCase(name: "bare chain, no bundle (CP119)", spec: #"["A", "B"]"#, extension_: "json", arguments: [], status: 1),
        ExitCase(name: "cycle", spec: #"{"A": "B", "B": "A"}"#, extension_: "json", arguments: [], status: 1),
        ExitCase(name: "syntax error", spec: #"["A""#, extension_: "json", arguments: [], status: 2),
        ExitCase(name: "YAML", spec: "- A\n- B\n", extension_: "yaml", arguments: ["--format", "json"], status: 1),
        ExitCase(name: "strict, CP119 only", spec: #"["A", "B"]"#, extension_: "json", arguments: ["--strict"], status: 1),
        ExitCase(name: "a single version has no step to classify", spec: #"["A"]"#, extension_: "json", arguments: [], status: 0),
        ExitCase(name: "unknown option is usage", spec: #"["A"]"#, extension_: "json", arguments: ["--bogus"], status: 2),
        ExitCase(name: "bad format value is usage", spec: #"["A"]"#, extension_: "json", arguments: ["--format", "xml"], status: 2),
        ExitCase(name: "JSON with a comment", spec: "# chain\n[\"A\", \"B\"]", extension_: "json", arguments: [], status: 2),
        ExitCase(name: "JSON with single quotes", spec: "{'A': 'B'}", extension_: "json", arguments: [], status: 2),
        ExitCase(name: "JSON with a trailing comma", spec: #"["A","B",]"#, extension_: "json", arguments: [], status: 2),
        ExitCase(name: "JSON surrogate pair", spec: #"{"chain": ["a\ud83d\ude80","b"]}"#, extension_: "json", arguments: [], status: 1),
        ExitCase(name: "YAML !!int name", spec: "- A\n- !!int 3\n", extension_: "yaml", arguments: [], status: 2),
    ]

    /// The largest byte limit a user can give reads the file whole; adding the one byte that
    /// detects an oversized file no longer overflows (it crashed the process before).
    @Test func theLargestByteLimitDoesNotOverflow() async {
        let spec = Self.root.appendingPathComponent("Chains/notas/chain.json").path
        let run = await OutputCapture.run(["validate", spec, "--max-spec-bytes", "\(Int.max)"])
        #expect(run.status == 0, "\(run.error)")
    }

    @Test(arguments: exitCases)
    func validateExitStatus(_ c: ExitCase) async throws {
        let spec = try write(c.spec, name: "chain.\(c.extension_)")
        defer { try? FileManager.default.removeItem(at: spec) }
        let status = await OutputCapture.run(["validate", spec.path] + c.arguments).status
        #expect(status == c.status)
    }

    /// A `\\` at a line end inside a `"""` discussion prints a literal backslash instead of joining lines.
    @Test(arguments: ChainPlan.configuration.subcommands.map { $0.configuration.commandName ?? "?" })
    func helpHasNoLineEndingInABackslash(_ name: String) throws {
        let command = try #require(ChainPlan.configuration.subcommands.first { $0.configuration.commandName == name })
        let help = ChainPlan.helpMessage(for: command, columns: 200)
        let bad = help.split(separator: "\n").filter { $0.hasSuffix("\\") }
        #expect(bad.isEmpty, "\(name) --help: \(bad)")
        #expect(!help.contains("\\\n"))
    }

    /// Like `report`, `graph` takes the format from -o's extension unless --format is given;
    /// an extension that names no format is refused (AdoptionReportingTests), one with --format is fine.
    @Test(arguments: [
        ("chain.png", [String](), "\u{89}PNG"), ("chain.PDF", [], "%PDF"), ("chain.dot", [], "digraph"), ("chain.gv", [], "digraph"),
        ("chain.json", [], "{"), ("chain.svg", [], "<?xml"), ("chain.picture", ["--format", "svg"], "<?xml"), ("chain.png", ["--format", "dot"], "digraph"),
    ])
    func graphFormatFollowsTheExtension(_ name: String, _ extra: [String], _ start: String) async throws {
        let output = temporaryFile(name)
        defer { try? FileManager.default.removeItem(at: output) }
        let spec = Self.root.appendingPathComponent("Chains/grocery-dude/chain.json").path
        #expect(await ChainPlan.run(arguments: ["graph", spec, "-o", output.path] + extra) == 0)
        let data = try Data(contentsOf: output)
        #expect(data.starts(with: Array(start.unicodeScalars.map { UInt8($0.value) })), "\(name): \(data.prefix(8).map { $0 })")
    }

    @Test func missingSpecFileIsExit2() async {
        #expect(await ChainPlan.run(arguments: ["validate", "/nonexistent/chain.json"]) == 2)
    }

    @Test func unknownFromVersionIsUsage() async throws {
        let spec = try write(#"["A", "B"]"#, name: "chain.json")
        #expect(await ChainPlan.run(arguments: ["paths", spec.path, "--from", "Z"]) == 2)
    }

    @Test func exitStatusMapping() {
        let warning = Diagnostic(.targetNotCurrentVersion, "w")
        let error = Diagnostic(.migrationCycle, "e")
        let unusable = Diagnostic(.unreadableSpec, "u")
        #expect(ExitStatus.code(for: [], strict: false) == 0)
        #expect(ExitStatus.code(for: [warning], strict: false) == 0)
        #expect(ExitStatus.code(for: [warning], strict: true) == 1)
        #expect(ExitStatus.code(for: [error, warning], strict: false) == 1)
        #expect(ExitStatus.code(for: [error, unusable], strict: false) == 2)
        #expect(ExitStatus.code(for: [Diagnostic(.inferredOrder, severity: .note, "n")], strict: true) == 0)
    }

    struct ColorCase: CustomTestStringConvertible, Sendable {
        var name: String
        var flag: Bool
        var toFile: Bool
        var noColor: String?
        var terminal: Bool
        var expected: Bool
        var testDescription: String { name }
    }

    static let colorCases: [ColorCase] = [
        ColorCase(name: "terminal", flag: false, toFile: false, noColor: nil, terminal: true, expected: true),
        ColorCase(name: "not a terminal", flag: false, toFile: false, noColor: nil, terminal: false, expected: false),
        ColorCase(name: "NO_COLOR=1", flag: false, toFile: false, noColor: "1", terminal: true, expected: false),
        ColorCase(name: "NO_COLOR=0 is still set", flag: false, toFile: false, noColor: "0", terminal: true, expected: false),
        ColorCase(name: "NO_COLOR empty keeps colour", flag: false, toFile: false, noColor: "", terminal: true, expected: true),
        ColorCase(name: "NO_COLOR empty, not a terminal", flag: false, toFile: false, noColor: "", terminal: false, expected: false),
        ColorCase(name: "--no-color", flag: true, toFile: false, noColor: nil, terminal: true, expected: false),
        ColorCase(name: "--no-color with empty NO_COLOR", flag: true, toFile: false, noColor: "", terminal: true, expected: false),
        ColorCase(name: "to a file", flag: false, toFile: true, noColor: nil, terminal: true, expected: false),
    ]

    @Test(arguments: colorCases)
    func colorDecision(_ c: ColorCase) {
        #expect(ColorDecision.useColor(noColorFlag: c.flag, toFile: c.toFile, noColorEnvironment: c.noColor, isTerminal: c.terminal) == c.expected)
    }

    @Test func specDiscovery() throws {
        let directory = temporaryFile("dir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(SpecDiscovery.find(in: directory) == .none)
        try Data("[]".utf8).write(to: directory.appendingPathComponent("chain.yaml"))
        #expect(SpecDiscovery.find(in: directory) == .found(directory.appendingPathComponent("chain.yaml")))
        try Data("[]".utf8).write(to: directory.appendingPathComponent("chain.json"))
        #expect(SpecDiscovery.find(in: directory) == .several(["chain.json", "chain.yaml"]))
    }

    /// The JSON document is golden-tested: every field, every finding, byte for byte.
    @Test(arguments: ["corestore-tree", "every-finding"])
    func jsonDocumentIsGolden(_ name: String) async throws {
        let spec = Self.specs.appendingPathComponent("\(name).json")
        var text = await OutputCapture.run(["paths", spec.path, "--format", "json"]).output
        text = text.replacingOccurrences(of: Self.root.path + "/", with: "")
        let golden = Self.root.appendingPathComponent("Tests/Fixtures/Golden/\(name).paths.json")
        #expect(try GoldenFile.check(Data(text.utf8), with: golden))
    }

    @Test func textOutputIsCompilerStyle() async throws {
        let (status, output, _) = await OutputCapture.run(["validate", Self.specs.appendingPathComponent("every-finding.json").path])
        #expect(status == 1)
        let lines = output.split(separator: "\n").map(String.init)
        let relative = lines.map { $0.replacingOccurrences(of: "Tests/Fixtures/Specs/", with: "") }
        // History order: the finding about the whole chain (no bundle, CP119) first, then by version.
        #expect(relative.first?.hasPrefix("every-finding.json:2:12: error: the spec names no model bundle") == true)
        #expect(relative.contains("every-finding.json:5:10: error: cycle: 'B' → 'C' → 'B' [CP104]"))
        #expect(relative.contains("every-finding.json:7:5: error: version 'F' migrates to itself [CP103]"))
        #expect(relative.last?.hasSuffix("— fail") == true)
    }
}
