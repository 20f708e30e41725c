import Foundation
import FoundationXML
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// One fixture with hostile version, entity and attribute names (`Tests/Fixtures/HostileNames`:
/// quotes, backslashes, `<script>`, `&`, newlines, `%`, `]; a -> b //`, `{{ }}`, `$(id)`,
/// `::error::`, pipes and backticks, right-to-left overrides) rendered in every output format:
/// each format carries the names inertly — nothing is executed, injected or reordered.
@Suite struct HostileNamesTests {
    static let spec = TestPaths.fixtures.appendingPathComponent("HostileNames/chain.json")
    static let report: ChainReport = {
        var options = PlanOptions()
        options.baseDirectory = TestPaths.fixtures.appendingPathComponent("HostileNames")
        return ChainPlanner(options: options).plan(specAt: spec)
    }()
    static let v1 = #"v1 "quoted" <b>bold<b> & %s {{x}} $(id)"#
    static let v2 = "v2 ]; a -> b %0A back\\slash \u{202E}rtl\u{202C}"
    static let entity = "Note<script>alert(1)</script>"
    static let attribute = "{{body}} %n\n::error::injected"

    static func bidi(_ text: String) -> Bool { text.unicodeScalars.contains { MarkupText.isBidiControl($0) } }

    @Test func theFixtureCarriesTheNames() {
        #expect(Self.report.versions == [Self.v1, Self.v2])
        let messages = Self.report.diagnostics.map(\.message).joined(separator: "\n")
        #expect(messages.contains(Self.attribute))
        #expect(messages.contains("Old&Entity|pipe`tick`"))
        #expect(Self.report.diagnostics.contains { $0.code == .duplicateVersionInArray })
    }

    @Test func text() {
        let text = Reporters.render(Self.report, as: .text).utf8String
        #expect(text.contains(TerminalText.safe(Self.v2)))
        #expect(text.contains(#"{{body}} %n\n::error::injected"#))
        for line in text.split(separator: "\n") {
            #expect(!line.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(line)")
        }
    }

    @Test func json() throws {
        let data = Reporters.render(Self.report, as: .json)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Machine formats keep names exactly.
        #expect(document["versions"] as? [String] == [Self.v1, Self.v2])
        let messages = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages == Self.report.diagnostics.map(\.message))
    }

    @Test func sarif() throws {
        let data = Reporters.render(Self.report, as: .sarif)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let runs = try #require(document["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        let texts = results.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(texts.count == Self.report.diagnostics.count)
        #expect(texts.contains { $0.contains(Self.attribute) })
        #expect(!texts.contains { Self.bidi($0) })
        #expect(texts.contains { $0.contains(#"\u{202E}rtl"#) })
    }

    @Test func junit() throws {
        let data = Reporters.render(Self.report, as: .junit)
        let document = try XMLDocument(data: data)
        #expect(try document.nodes(forXPath: "//script").isEmpty)
        let text = document.rootElement()?.stringValue ?? ""
        #expect(text.contains(Self.entity) || data.utf8String.contains("Note&lt;script&gt;"))
        #expect(!Self.bidi(data.utf8String))
    }

    @Test func github() {
        let lines = Reporters.render(Self.report, as: .github).utf8String.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == Self.report.diagnostics.count + 1)
        for line in lines {
            #expect(line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice ") || line.hasPrefix("chainplan: "), "\(line)")
            #expect(!Self.bidi(String(line)))
        }
        // The name's own "::error::" stays inside the message, its newline escaped.
        #expect(lines.contains { $0.contains("%25n%0A::error::injected") })
        #expect(lines.contains { $0.contains("%250A back") })
    }

    @Test func markdown() {
        let markdown = ReviewReporter.markdown(Self.report, diagramLink: "chain.svg").utf8String
        #expect(!markdown.contains("<script"))
        #expect(markdown.contains("Note&lt;script&gt;"))
        #expect(!Self.bidi(markdown))
        for line in markdown.split(separator: "\n") where line.hasPrefix("|") {
            #expect(line.hasSuffix("|"), "a name broke a table row: \(line)")
        }
    }

    @Test func dotSVGAndHTML() throws {
        var diagram = Diagram(report: Self.report)
        diagram.showLegend = false
        let dot = DOTWriter().write(diagram)
        let svgData = try diagram.rendered(as: .svg)
        let svg = svgData.utf8String
        let document = try XMLDocument(data: svgData)
        // Exactly the versions' nodes and the steps' edges: no name injected a node or an edge.
        #expect(try document.nodes(forXPath: "//*[local-name()='g'][@class='node']").count == Self.report.versions.count)
        #expect(try document.nodes(forXPath: "//*[local-name()='g'][@class='edge']").count == diagram.edges.count)
        #expect(try document.nodes(forXPath: "//*[local-name()='script']").isEmpty)
        #expect(!svg.contains("onload"))
        #expect(!Self.bidi(dot))
        #expect(!Self.bidi(svg))

        let html = ReviewReporter.html(Self.report, diagramSVG: svg).utf8String
        #expect(!html.contains("<script"))
        #expect(html.contains("Note&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!Self.bidi(html))
    }
}

extension Data {
    var utf8String: String { String(decoding: self, as: UTF8.self) }
}
