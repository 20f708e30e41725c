import Foundation
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

/// `chainplan report`: golden Markdown and HTML for every example, HTML that parses and carries no
/// active content or external requests, Markdown that links the diagram written next to it.
struct ReportCommandTests {
    static let chains = CLITests.root.appendingPathComponent("Chains")

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `report` on an example and returns the status and the files it wrote, by name.
    func report(_ scenario: String, _ name: String, _ extra: [String] = []) async throws -> (Int32, [String: Data]) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = Self.chains.appendingPathComponent("\(scenario)/chain.json").path
        let status = await ChainPlan.run(arguments: ["report", spec, "-o", directory.appendingPathComponent(name).path] + extra)
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[file] = try Data(contentsOf: directory.appendingPathComponent(file))
        }
        return (status, files)
    }

    @Test(arguments: CommandTests.scenarios)
    func goldenDocuments(_ scenario: String) async throws {
        let (_, markdown) = try await report(scenario, "review.md")
        let markdownData = try #require(markdown["review.md"])
        #expect(try Golden.check(markdownData, against: "Golden/report/\(scenario).md"))
        let (_, html) = try await report(scenario, "review.html")
        let htmlData = try #require(html["review.html"])
        #expect(try Golden.check(htmlData, against: "Golden/report/\(scenario).html"))
    }

    @Test(arguments: CommandTests.scenarios)
    func htmlIsOneInertFile(_ scenario: String) async throws {
        let (_, files) = try await report(scenario, "review.html")
        #expect(files.keys.sorted() == ["review.html"])
        let data = try #require(files["review.html"])
        // Well-formed (so every name was escaped), with the diagram inline.
        let document = try XMLDocument(data: data, options: [])
        #expect(try document.nodes(forXPath: "//*[local-name()='svg']").count == 1)
        let text = String(decoding: data, as: UTF8.self)
        for active in ["<script", "javascript:", " onload=", " onclick=", "<iframe", "<link ", "@import", "url(http", "src=\"http"] {
            #expect(!text.lowercased().contains(active), "\(active)")
        }
        #expect(text.contains("@media print"))
        // Row and verdict colours print; a very long name wraps inside its cell.
        #expect(text.contains("-webkit-print-color-adjust:exact;print-color-adjust:exact"))
        #expect(text.contains("overflow-wrap:anywhere"))
        let report = ChainPlanner().plan(inputAt: Self.chains.appendingPathComponent("\(scenario)/chain.json"))
        for path in report.paths { #expect(text.contains("<td>\(MarkupText.xml(path.start))</td>")) }
    }

    @Test func markdownLinksTheDiagramWrittenNextToIt() async throws {
        let (status, files) = try await report("grocery-dude", "review.md")
        #expect(status == 0)
        #expect(files.keys.sorted() == ["review.md", "review.svg"])
        let markdownData = try #require(files["review.md"])
        #expect(String(decoding: markdownData, as: UTF8.self).contains("![Migration chain](review.svg)"))
        let svg = try #require(files["review.svg"])
        #expect(try XMLDocument(data: svg).rootElement()?.name == "svg")
    }

    /// Runs the built binary in `directory` and returns its standard output and error.
    func runBinary(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = ChildProcess.binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// Markdown on standard output cannot carry the diagram: a note on standard error says so.
    @Test func markdownOnStandardOutputSaysWhereTheDiagramIs() throws {
        let spec = Self.chains.appendingPathComponent("grocery-dude/chain.json").path
        let markdown = try runBinary(["report", spec])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.hasPrefix("# Migration review"))
        #expect(markdown.stderr == ReportCommand.noDiagramOnStandardOutput + "\n")
        let html = try runBinary(["report", spec, "--format", "html"])
        #expect(html.stdout.contains("<svg"))
        #expect(html.stderr.isEmpty)
    }

    @Test func theFormatFollowsTheExtensionAndTheExitStatusFollowsTheFindings() async throws {
        let (status, files) = try await report("events-two-passes", "review.json")
        #expect(status == 1)
        let jsonData = try #require(files["review.json"])
        let json = try #require(try JSONSerialization.jsonObject(with: jsonData) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        let (strict, _) = try await report("grocery-dude", "review.html", ["--strict"])
        #expect(strict == 1)
        let (forced, forcedFiles) = try await report("notas", "review.txt", ["--format", "html"])
        #expect(forced == 0)
        let forcedData = try #require(forcedFiles["review.txt"])
        #expect(String(decoding: forcedData, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
    }

    @Test func theMatrixSaysWhichStartsFail() throws {
        let events = try PassesCommandTests.eventsWithoutMappingModels()
        defer { try? FileManager.default.removeItem(at: events) }
        let report = ChainPlanner().plan(inputAt: events.appendingPathComponent("chain.json"))
        let rows = ReviewReporter.matrix(report)
        #expect(rows.map(\.start) == ["Events", "Events 2"])
        try #require(rows.count == 2)
        #expect(rows[0].verdict == "fails")
        #expect(rows[0].kinds == "needs a mapping model")
        #expect(rows[1].verdict == "target")
    }

    /// A path whose steps drop data does not read as plain success, and both documents say the
    /// same words for every row.
    @Test func theMatrixShowsDataLossInOneVocabulary() throws {
        let report = ChainPlanner().plan(inputAt: Self.chains.appendingPathComponent("grocery-dude/chain.json"))
        let rows = ReviewReporter.matrix(report)
        #expect(rows.map(\.verdict) == ["migrates, loses data", "migrates, loses data", "migrates, loses data", "target"])
        let markdown = String(decoding: ReviewReporter.markdown(report, diagramLink: nil), as: UTF8.self)
        let html = String(decoding: ReviewReporter.html(report, diagramSVG: nil), as: UTF8.self)
        for row in rows {
            #expect(html.contains("<td>\(MarkupText.xml(row.verdict))</td></tr>"), "\(row.verdict)")
            #expect(markdown.contains("| \(MarkupText.markdown(row.verdict)) |") || markdown.contains("| **\(MarkupText.markdown(row.verdict))** |"), "\(row.verdict)")
        }
        #expect(!markdown.contains("| ok |"))
        #expect(html.contains("<tr class=\"data-loss\">"))
    }

    /// `report --since V`: the HTML's "New steps" are the steps into versions after V; a version
    /// not in the chain, or a format other than HTML, is a usage error (exit 2) writing nothing.
    @Test(arguments: [
        (since: "Model", newSteps: ["Model → Model 2", "Model 2 → Model 3", "Model 3 → Model 4"], status: Int32(0)),
        (since: "Model 3", newSteps: ["Model 3 → Model 4"], status: Int32(0)),
        (since: "Model 4", newSteps: [], status: Int32(0)),
        (since: "Model 9", newSteps: [], status: Int32(2)),
    ])
    func sinceChoosesTheNewSteps(_ c: (since: String, newSteps: [String], status: Int32)) async throws {
        let (status, files) = try await report("grocery-dude", "review.html", ["--since", c.since])
        #expect(status == c.status)
        guard c.status == 0 else {
            #expect(files.isEmpty)
            return
        }
        let html = String(decoding: try #require(files["review.html"]), as: UTF8.self)
        let section = try #require(html.components(separatedBy: "<h2 id=\"new\">").dropFirst().first?.components(separatedBy: "<h2 ").first)
        let lead = section.components(separatedBy: "</p>").first ?? ""
        let listed = lead.components(separatedBy: "<a href=\"#step-").dropFirst().compactMap {
            $0.components(separatedBy: "\">").dropFirst().first?.components(separatedBy: "</a>").first
        }
        #expect(listed == c.newSteps.map { MarkupText.xml($0) })
        if c.newSteps.isEmpty { #expect(section.contains("No step leads to a version after")) }
    }

    @Test func sinceIsForHTMLOnly() async throws {
        let (status, files) = try await report("grocery-dude", "review.md", ["--since", "Model 3"])
        #expect(status == 2)
        #expect(files.isEmpty)
    }
}
