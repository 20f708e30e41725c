import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Diagrams, hostile names and SVG helpers shared by the Render tests.
enum RenderFixtures {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Render
        .deletingLastPathComponent()  // ChainPlanKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let goldenDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/Render/golden")

    typealias Node = Diagram.Node
    typealias Edge = Diagram.Edge

    /// A chain `prefix1 → prefix2 → … → prefixN` of one kind.
    static func chain(_ count: Int, prefix: String = "Model ", kind: Diagram.EdgeKind = .lightweight) -> Diagram {
        let names = (1...max(1, count)).map { "\(prefix)\($0)" }
        var nodes = names.map { Node(id: $0) }
        nodes[nodes.count - 1].isTarget = true
        nodes[nodes.count - 1].isCurrentVersion = true
        let edges = zip(names, names.dropFirst()).map { Edge(from: $0, to: $1, kind: kind) }
        return Diagram(nodes: nodes, edges: edges)
    }

    /// Every version name a pull request could smuggle in.
    static let hostileNames: [String] = [
        "quote \" inside",
        "\"",
        "back\\slash",
        "trailing\\",
        "\\N \\G \\E \\T \\H \\L \\l \\r \\n \\\\ \\\"",
        "line one\nline two",
        "carriage\rreturn",
        "crlf\r\nend",
        "<script>alert(1)</script>",
        "]; a -> b //",
        "/* comment */ # hash",
        "{{ template }}",
        "%s %n %% %d",
        "\u{200F}\u{202E}evil\u{202C}.txt",
        "nul\u{0}byte",
        "tab\tdel\u{7F}bell\u{7}",
        "nonchar\u{FFFF}\u{FFFE}",
        "Modèle 日本語 😀 Ωμέγα ﷽",
        "&amp; &lt; &#60; &#x3C; & &nosuch;",
        "  leading and   multiple spaces  ",
        "x\" onload=\"alert(1)",
        "javascript:alert(1)",
        "--> <!-- ]]> <![CDATA[",
        "digraph { a -> b }",
        "<b>html</b> <TABLE>",
        "label=\"x\", URL=\"http://evil\"",
        "\\",
        "",
        " ",
        "   ",
        "\n\nafter blank lines\n",
        String(repeating: "long-name-", count: 1_000),
    ]

    /// A chain through every hostile name, with every kind of step.
    static var hostileDiagram: Diagram {
        let kinds = Diagram.EdgeKind.allCases
        var nodes = hostileNames.map { Node(id: $0) }
        nodes[nodes.count - 1].isTarget = true
        let edges = zip(hostileNames, hostileNames.dropFirst()).enumerated().map { index, pair in
            Edge(from: pair.0, to: pair.1, kind: kinds[index % kinds.count], label: hostileNames[index])
        }
        return Diagram(title: hostileNames[5], nodes: nodes, edges: edges, showLegend: true)
    }

    /// What Graphviz's SVG writer makes of a line of text: a space that follows a space becomes
    /// a no-break space (U+00A0), so that browsers keep runs of spaces.
    static func svgSpacing(_ line: String) -> String {
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in line.unicodeScalars {
            result.append(scalar == " " && previous == " " ? "\u{A0}" : scalar)
            previous = scalar
        }
        return String(result)
    }

    /// The lines Graphviz should draw for a version name (it writes no `<text>` for an
    /// empty line).
    static func expectedLines(_ name: String) -> [String] {
        Diagram.displayText(name)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { svgSpacing(String($0)) }
    }
}

/// The text content of an SVG written by Graphviz, grouped by node and edge.
struct SVGContent {
    /// `<title>` of each `<g class="node">` group (the DOT identifier) → its `<text>` lines.
    var nodeTexts: [String: [String]] = [:]
    /// `<title>` of each `<g class="edge">` group (`n0->n1`) → its `<text>` lines.
    var edgeTexts: [String: [String]] = [:]
    /// Every element name in the document.
    var elements: Set<String> = []
    /// Every attribute name in the document.
    var attributes: Set<String> = []

    init(_ data: Data) throws {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse(), parser.parserError == nil else {
            throw SVGContentError.notWellFormed(String(describing: parser.parserError))
        }
        nodeTexts = collector.nodeTexts
        edgeTexts = collector.edgeTexts
        elements = collector.elements
        attributes = collector.attributes
    }

    enum SVGContentError: Error { case notWellFormed(String) }

    private final class Collector: NSObject, XMLParserDelegate {
        var nodeTexts: [String: [String]] = [:]
        var edgeTexts: [String: [String]] = [:]
        var elements: Set<String> = []
        var attributes: Set<String> = []
        private var groupClass: String?
        private var groupTitle = ""
        private var groupTexts: [String] = []
        private var inTitle = false
        private var inText = false
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.insert(name)
            self.attributes.formUnion(attributes.keys)
            switch name {
            case "g" where attributes["class"] == "node" || attributes["class"] == "edge":
                groupClass = attributes["class"]
                groupTitle = ""
                groupTexts = []
            case "title" where groupClass != nil:
                inTitle = true
                text = ""
            case "text" where groupClass != nil:
                inText = true
                text = ""
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTitle || inText { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "title" where inTitle:
                groupTitle = text
                inTitle = false
            case "text" where inText:
                groupTexts.append(text)
                inText = false
            case "g" where groupClass != nil:
                if groupClass == "node" {
                    nodeTexts[groupTitle] = groupTexts
                } else {
                    edgeTexts[groupTitle] = groupTexts
                }
                groupClass = nil
            default:
                break
            }
        }
    }
}

/// The resident set size of this process, in bytes, from /proc/self/status.
func residentBytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let digits = line.filter(\.isNumber)
        if let kilobytes = Int(digits) { return kilobytes * 1024 }
    }
    throw CocoaError(.fileReadCorruptFile)
}
