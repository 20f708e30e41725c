import Foundation
import ChainPlanTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
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

/// `validate --format sarif|junit|github`: golden output for every example, SARIF checked against
/// the official schema, JUnit parsed as XML, GitHub's escaping and limits, and several formats in
/// one run. `GITHUB_STEP_SUMMARY` is injected per run (`CLIEnvironment`), so the tests run in parallel.
@Suite
struct CIFormatTests {
    static let chains = CLITests.root.appendingPathComponent("Chains")
    static let sarifSchema = SharedCorpus.sarifSchema
    /// Every example in Chains/, every invalid spec included.
    static let examples = CommandTests.examples

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs chainplan from the repository root (paths in output are relative to it), with `-o`.
    func run(_ arguments: [String], format: String, environment: [String: String] = [:]) async throws -> (Int32, Data) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let status = await OutputCapture.run(arguments + ["--format", format, "-o", out.path], environment: environment).status
        return (status, try Data(contentsOf: out))
    }

    /// Validates `data` against the official SARIF 2.1.0 schema with Debian's python3-jsonschema
    /// (installed by `make test`); a missing validator fails the test.
    static func sarifSchemaProblems(_ data: Data) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-\(UUID().uuidString).sarif")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); document = json.load(open(sys.argv[2]))
            jsonschema.Draft7Validator.check_schema(schema)
            errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(document), key=str)
            print("\\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])); sys.exit(1 if errors else 0)
            """, sarifSchema.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : output
    }

    @Test(arguments: examples)
    func goldenOutputs(_ example: String) async throws {
        let spec = Self.chains.appendingPathComponent(example).path
        let name = CommandTests.goldenName(example)
        for (format, suffix) in [("sarif", "sarif"), ("junit", "junit.xml"), ("github", "github.txt")] {
            let (_, data) = try await run(["validate", spec], format: format)
            let golden = "Golden/ci/\(name).\(suffix)"
            #expect(try Golden.check(data, against: golden), "\(golden) differs; see \(NSTemporaryDirectory())")
        }
    }

    @Test func sarifRulesAndResults() async throws {
        let (_, data) = try await run(["validate", Self.chains.appendingPathComponent("events-two-passes/chain.json").path], format: "sarif")
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == RuleCatalogue.all.map(\.rawValue))
        #expect(rules.allSatisfy { (($0["help"] as? [String: Any])?["text"] as? String)?.isEmpty == false })
        let results = try #require(run["results"] as? [[String: Any]])
        // One cause, one finding: the entity the example's pass set forgets (CP701), the missing
        // snapshots of its two hand-written mapping models (CP120, noted by its .chainplan.yml),
        // each partial mapping model (CP705) and the relationship across passes (CP704), in
        // history order: the mapping models' own findings first, then the step's.
        #expect(results.map { $0["ruleId"] as? String } == ["CP120", "CP120", "CP120", "CP120", "CP701", "CP705", "CP705", "CP704"])
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            let location = try #require(((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: Any])
            let uri = try #require(artifact["uri"] as? String)
            #expect(!uri.hasPrefix("/") && !uri.contains(" "), "relative and percent-encoded: \(uri)")
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
        }
        // The model finding points at its element: line and column of the `<`.
        let modelRegion = (((try #require(results.first { $0["ruleId"] as? String == "CP701" })["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]) as? [String: Any]
        #expect(modelRegion?["startLine"] as? Int == 16)
        #expect(modelRegion?["startColumn"] as? Int == 5)
    }

    @Test func sarifHasNoRegionWithoutALine() {
        let diagnostic = Diagnostic(.inferredOrder, "inferred", at: SourceLocation(file: "App/Model 2.xcdatamodeld"))
        let location = SARIFReporter.Location(diagnostic.location!)
        #expect(location.physicalLocation.region == nil)
        #expect(location.physicalLocation.artifactLocation.uri == "App/Model%202.xcdatamodeld")
        let outside = SARIFReporter.Location(SourceLocation(file: "/etc/passwd", line: 1))
        #expect(outside.physicalLocation.artifactLocation.uri == "file:///etc/passwd")
        #expect(outside.physicalLocation.artifactLocation.uriBaseId == nil)
    }

    @Test(arguments: examples)
    func junitParsesAsXML(_ example: String) async throws {
        let (_, data) = try await run(["validate", Self.chains.appendingPathComponent(example).path], format: "junit")
        let document = try XMLDocument(data: data)
        #expect(document.rootElement()?.name == "testsuites")
        let cases = try document.nodes(forXPath: "//testcase")
        let report = ChainPlanner().plan(inputAt: Self.chains.appendingPathComponent(example))
        #expect(cases.count == report.steps.count + report.paths.count + 1)
    }

    @Test func junitFailsStepsAndTheirPaths() async throws {
        let spec = Self.chains.appendingPathComponent("events-two-passes/chain.json").path
        let (_, data) = try await run(["validate", spec], format: "junit")
        let document = try XMLDocument(data: data)
        let failed = try document.nodes(forXPath: "//testcase[failure]").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        #expect(failed == ["Events → Events 2", "Events → Events 2"])
        #expect(try document.nodes(forXPath: "//testcase[@classname='chainplan.paths']/failure/@type").map(\.stringValue) == ["step-fails"])
        // Warnings fail only with --strict.
        let grocery = Self.chains.appendingPathComponent("grocery-dude/chain.json").path
        let (_, lenient) = try await run(["validate", grocery], format: "junit")
        #expect(try XMLDocument(data: lenient).nodes(forXPath: "//failure").isEmpty)
        let (_, strict) = try await run(["validate", grocery, "--strict"], format: "junit")
        #expect(try XMLDocument(data: strict).nodes(forXPath: "//failure/@type").map(\.stringValue) == ["CP202", "step-fails", "step-fails", "step-fails"])
    }

    @Test func junitCarriesHostileNamesInertly() throws {
        let name = "<script>\"&'\u{1}]]>"
        let report = ChainReport(spec: "chain.json", model: nil, target: name, versions: ["A", name],
                                 steps: [ChainReport.Step(from: "A", to: name)],
                                 paths: [ChainReport.Path(start: "A", target: name, reachable: false, length: nil, next: name,
                                                          steps: nil, problem: "dead-end", stopsAt: name)],
                                 pathsAbbreviated: nil,
                                 diagnostics: [Diagnostic(.unreachableTarget, "bad \(name)\nsecond line", at: SourceLocation(file: "chain.json", line: 1), versions: ["A", name])],
                                 summary: ChainReport.Summary(diagnostics: []))
        let data = JUnitReporter.render(report)
        let document = try XMLDocument(data: data)
        let names = try document.nodes(forXPath: "//testcase/@name").map(\.stringValue)
        #expect(names.contains("A → <script>\"&'\u{FFFD}]]>"))
        #expect(!String(decoding: data, as: UTF8.self).contains("<script>"))
    }

    @Test(arguments: [
        ("50% done", "50%25 done"),
        ("a\nb\r\nc", "a%0Ab%0D%0Ac"),
        ("key: value, more", "key: value, more"),
    ])
    func githubMessagesEscapeData(_ message: String, _ expected: String) {
        let command = GitHubReporter.command(for: Diagnostic(.duplicateVersionInArray, message, at: SourceLocation(file: "a.json", line: 2, column: 3)))
        #expect(command == "::error file=a.json,line=2,col=3,title=CP101::\(expected)")
    }

    @Test func githubPropertiesEscapeColonsAndCommas() {
        let command = GitHubReporter.command(for: Diagnostic(.dataRemoved, "gone", at: SourceLocation(file: "Model: v2, final%/contents\n", line: 7)))
        #expect(command == "::notice file=Model%3A v2%2C final%25/contents%0A,line=7,title=CP209::gone")
    }

    @Test func githubShowsTenOfEachKindAndCountsTheRest() {
        let diagnostics = (1...12).map { (line: Int) in Diagnostic(.migrationCycle, "cycle \(line)", at: SourceLocation(file: "c.json", line: line)) }
            + (1...3).map { Diagnostic(.targetNotCurrentVersion, "target \($0)", at: SourceLocation(file: "c.json", line: 20 + $0)) }
        let report = ChainReport(spec: "c.json", model: nil, target: nil, versions: [], steps: [], paths: [], pathsAbbreviated: nil,
                                 diagnostics: diagnostics, summary: ChainReport.Summary(diagnostics: diagnostics))
        // With a job summary, the rest are there.
        let lines = String(decoding: GitHubReporter.render(report, stepSummary: true), as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 3)
        #expect(!lines.contains { $0.contains("cycle 11") })
        #expect(lines.contains("chainplan: 2 more errors not annotated (GitHub shows 10 of each kind per step); every finding is in the job summary"))
        // Without one, they follow the annotations as plain log lines.
        let plain = String(decoding: GitHubReporter.render(report, stepSummary: false), as: UTF8.self).split(separator: "\n")
        #expect(plain.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(plain.contains("c.json:11: error: cycle 11 [CP104]") && plain.contains("c.json:12: error: cycle 12 [CP104]"), "\(plain)")
        #expect(plain.contains("chainplan: 2 more errors not annotated (GitHub shows 10 of each kind per step); they are listed above as plain lines"))
        #expect(!plain.contains { $0.contains("job summary") })
        let summary = String(decoding: GitHubReporter.stepSummary(report), as: UTF8.self)
        #expect(summary.components(separatedBy: "| error | CP104 |").count - 1 == 12)
    }

    /// The plain lines carry the input's paths and messages; a runner trims leading space before
    /// it looks for `::`, so they are bracketed by `stop-commands` with a token they cannot hold.
    @Test func plainLinesCannotRunWorkflowCommands() throws {
        let hostile = ["::error file=x::injected", "  ::add-mask::secret", "##[error]legacy"]
        let diagnostics = (1...10).map { Diagnostic(.migrationCycle, "cycle \($0)", at: SourceLocation(file: "c.json", line: $0)) }
            + hostile.map { Diagnostic(.migrationCycle, $0, at: SourceLocation(file: $0)) }
        let report = ChainReport(spec: "c.json", model: nil, target: nil, versions: [], steps: [], paths: [], pathsAbbreviated: nil,
                                 diagnostics: diagnostics, summary: ChainReport.Summary(diagnostics: diagnostics))
        let lines = String(decoding: GitHubReporter.render(report, stepSummary: false), as: UTF8.self).split(separator: "\n").map(String.init)
        let stop = try #require(lines.firstIndex { $0.hasPrefix("::stop-commands::") })
        let token = String(lines[stop].dropFirst("::stop-commands::".count))
        #expect(!token.isEmpty)
        let resume = try #require(lines.firstIndex(of: "::\(token)::"))
        let bracketed = lines[(stop + 1)..<resume]
        #expect(bracketed.count == hostile.count)
        for text in hostile { #expect(bracketed.contains { $0.contains(text.trimmingCharacters(in: .whitespaces)) }) }
        #expect(!bracketed.contains { $0.contains(token) })
        // Annotations come before the bracket; nothing after it but chainplan's own lines.
        #expect(lines[..<stop].allSatisfy { $0.hasPrefix("::error ") })
        #expect(lines[(resume + 1)...].allSatisfy { $0.hasPrefix("chainplan: ") })
        // The same input gives the same output.
        #expect(GitHubReporter.render(report) == GitHubReporter.render(report))
    }

    @Test func githubWritesTheJobSummary() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let summary = directory.appendingPathComponent("summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let (status, _) = try await run(["validate", Self.chains.appendingPathComponent("events-two-passes/chain.json").path], format: "github",
                                        environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(status == 1)
        let text = try String(contentsOf: summary, encoding: .utf8)
        #expect(text.hasPrefix("earlier step\n## chainplan: fail"))
        #expect(text.contains("| error | CP701 |"))
    }

    /// A job summary that cannot be written is a warning: the gate's exit status stands.
    @Test func anUnwritableJobSummaryKeepsTheExitStatus() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["GITHUB_STEP_SUMMARY": directory.appendingPathComponent("missing/summary.md").path]
        let (failing, failingOutput) = try await run(["validate", Self.chains.appendingPathComponent("events-two-passes/chain.json").path], format: "github",
                                                     environment: environment)
        #expect(failing == 1)
        #expect(String(decoding: failingOutput, as: UTF8.self).contains("::error "))
        let (passing, _) = try await run(["validate", Self.chains.appendingPathComponent("grocery-dude/chain.json").path], format: "github",
                                         environment: environment)
        #expect(passing == 0)
    }

    @Test func severalFormatsInOneRun() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sarif = directory.appendingPathComponent("out.sarif"), junit = directory.appendingPathComponent("junit.xml")
        let spec = Self.chains.appendingPathComponent("events-two-passes/chain.json").path
        let status = await ChainPlan.run(arguments: ["validate", spec, "--format", "sarif", "-o", sarif.path, "--format", "junit", "-o", junit.path])
        #expect(status == 1)
        // The SARIF is the one a single-format run writes (whose schema CIFormatSchemaCorpusTests checks).
        let (_, single) = try await run(["validate", spec], format: "sarif")
        #expect(try Data(contentsOf: sarif) == single)
        #expect(try XMLDocument(data: Data(contentsOf: junit)).rootElement()?.name == "testsuites")
        // More -o than formats, or two formats left for standard output: usage errors.
        #expect(await ChainPlan.run(arguments: ["validate", spec, "--format", "sarif", "-o", sarif.path, "-o", junit.path]) == 2)
        #expect(await ChainPlan.run(arguments: ["validate", spec, "--format", "sarif", "--format", "junit"]) == 2)
    }

    /// Two formats to one file: the second would silently overwrite the first.
    @Test func oneFileForTwoFormatsIsAUsageError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let same = directory.appendingPathComponent("same").path
        let spec = Self.chains.appendingPathComponent("events-two-passes/chain.json").path
        for second in [same, directory.path + "/./same"] {
            #expect(await ChainPlan.run(arguments: ["validate", spec, "--format", "sarif", "-o", same, "--format", "junit", "-o", second]) == 2)
            #expect(!FileManager.default.fileExists(atPath: same))
        }
    }

    /// Code spans take no backslash escapes: the fence and padding carry the backticks.
    @Test(arguments: [
        ("my_app/chain.json", false, "`my_app/chain.json`"),
        ("/x/rileytestut__AltStore/*[a]*.xcmappingmodel", false, "`/x/rileytestut__AltStore/*[a]*.xcmappingmodel`"),
        ("a`b", false, "``a`b``"),
        ("``x", false, "``` ``x ```"),
        ("x`", false, "`` x` ``"),
        (" padded ", false, "`  padded  `"),
        ("a<b>&amp;", false, "`a<b>&amp;`"),
        ("two\nlines", false, "`two lines`"),
        ("a|b", true, "`a\\|b`"),
        ("a|b", false, "`a|b`"),
        ("rtl\u{202E}x", false, "`rtl\\u{202E}x`"),
    ])
    func markdownCodeSpans(_ text: String, _ inTable: Bool, _ expected: String) {
        #expect(MarkupText.markdownCode(text, inTable: inTable) == expected)
    }

    @Test func theJobSummaryShowsNamesAsWrittenAndCountsInEnglish() {
        let diagnostics = [Diagnostic(.renameWithoutIdentifier, "rename"), Diagnostic(.dataRemoved, "gone")]
        let report = ChainReport(spec: "my_app/chain.json", model: nil, target: nil, versions: ["A"], steps: [], paths: [], pathsAbbreviated: nil,
                                 diagnostics: diagnostics, summary: ChainReport.Summary(diagnostics: diagnostics))
        let summary = String(decoding: GitHubReporter.stepSummary(report), as: UTF8.self)
        #expect(summary.contains("`my_app/chain.json`: 1 version, 0 steps; 0 errors, 1 warning, 1 note.\n"), "\(summary)")
    }

    @Test func markdownAndXMLEscaping() {
        #expect(MarkupText.xml("a<b>&\"'\u{0}\u{FFFF}\tz") == "a&lt;b&gt;&amp;&quot;&#39;\u{FFFD}\u{FFFD}\tz")
        #expect(MarkupText.markdown("x|y *z* `c` <b>\nnext") == "x\\|y \\*z\\* \\`c\\` &lt;b&gt;<br>next")
    }
}

extension CorpusTests {
    /// The tests of `CIFormatTests` that read `../shared`.
    @Suite struct CIFormatSchemaCorpusTests {
        @Test(arguments: CIFormatTests.examples)
        func sarifFollowsTheOfficialSchema(_ example: String) async throws {
            let (_, data) = try await CIFormatTests().run(["validate", CIFormatTests.chains.appendingPathComponent(example).path], format: "sarif")
            let problems = try CIFormatTests.sarifSchemaProblems(data)
            #expect(problems == nil, "\(problems ?? "")")
        }
    }
}
