import Foundation
import ChainPlanTestSupport
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

/// One golden DOT file and the diagram it is written from.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    let name: String
    let diagram: Diagram
    var options = DOTWriter.Options()
    var testDescription: String { name }
}

extension GoldenCase {
    typealias Node = Diagram.Node
    typealias Edge = Diagram.Edge

    static let all: [GoldenCase] = [
        GoldenCase(name: "linear", diagram: Diagram(
            title: "Model.xcdatamodeld",
            nodes: [Node(id: "Model"), Node(id: "Model 2"), Node(id: "Model 3"),
                    Node(id: "Model 4", isTarget: true, isCurrentVersion: true)],
            edges: [Edge(from: "Model", to: "Model 2", kind: .lightweight),
                    Edge(from: "Model 2", to: "Model 3", kind: .lightweight),
                    Edge(from: "Model 3", to: "Model 4", kind: .lightweight)]
        )),
        GoldenCase(name: "tree-converging", diagram: Diagram(
            nodes: [Node(id: "1.0"), Node(id: "1.1"), Node(id: "2.0-beta"),
                    Node(id: "2.0", isTarget: true, isCurrentVersion: true)],
            edges: [Edge(from: "1.0", to: "1.1", kind: .lightweight),
                    Edge(from: "1.0", to: "2.0-beta", kind: .lightweight),
                    Edge(from: "1.1", to: "2.0", kind: .heavyweight, label: "Mapping_1_1_to_2_0"),
                    Edge(from: "2.0-beta", to: "2.0", kind: .none)]
        )),
        GoldenCase(name: "cycle", diagram: Diagram(
            nodes: [Node(id: "A", inCycle: true), Node(id: "B", inCycle: true), Node(id: "C", inCycle: true),
                    Node(id: "D", isTarget: true)],
            edges: [Edge(from: "A", to: "B", kind: .lightweight, inCycle: true),
                    Edge(from: "B", to: "C", kind: .heavyweight, inCycle: true, label: "BtoC"),
                    Edge(from: "C", to: "A", kind: .lightweight, inCycle: true),
                    Edge(from: "C", to: "D", kind: .lightweight)]
        )),
        // Chains/invalid/CP104-cycle.json: no target, so every version is unreachable; the ones
        // on the cycle are drawn as on a cycle, and the legend shows both markers.
        GoldenCase(name: "cycle-without-target", diagram: Diagram(
            nodes: [Node(id: "Model", isUnreachable: true), Node(id: "Model 2", isUnreachable: true, inCycle: true),
                    Node(id: "Model 3", isUnreachable: true, inCycle: true), Node(id: "Model 4", isUnreachable: true, inCycle: true)],
            edges: [Edge(from: "Model", to: "Model 2", kind: .lightweight),
                    Edge(from: "Model 2", to: "Model 3", kind: .lightweight, inCycle: true),
                    Edge(from: "Model 3", to: "Model 4", kind: .lightweight, inCycle: true),
                    Edge(from: "Model 4", to: "Model 2", kind: .lightweight, inCycle: true)],
            showLegend: true
        )),
        GoldenCase(name: "unreachable-dead-end", diagram: Diagram(
            nodes: [Node(id: "V1"), Node(id: "V2 (abandoned)", isUnreachable: true),
                    Node(id: "V3", isTarget: true),
                    Node(id: "V0 legacy", isCurrentVersion: true, isUnreachable: true),
                    Node(id: "store model", isUnknown: true, note: "store")],
            edges: [Edge(from: "V1", to: "V2 (abandoned)", kind: .lightweight),
                    Edge(from: "V1", to: "V3", kind: .lightweight),
                    Edge(from: "store model", to: "V1", kind: .unknown),
                    Edge(from: "V0 legacy", to: "V2 (abandoned)", kind: .failing)]
        )),
        GoldenCase(name: "direct-jumps", diagram: Diagram(
            nodes: (1...5).map { Node(id: "v\($0)", isTarget: $0 == 5) },
            edges: (1...4).map { Edge(from: "v\($0)", to: "v\($0 + 1)", kind: .lightweight) } + [
                Edge(from: "v1", to: "v5", kind: .heavyweight, isDirectJump: true, label: "Jump1to5"),
                Edge(from: "v2", to: "v4", kind: .lightweight, isDirectJump: true),
                Edge(from: "v1", to: "v3", kind: .failing, isDirectJump: true),
            ]
        )),
        GoldenCase(name: "highlighted-path", diagram: Diagram(
            nodes: [Node(id: "a", isHighlighted: true), Node(id: "b"), Node(id: "c", isHighlighted: true),
                    Node(id: "d", isTarget: true, isHighlighted: true)],
            edges: [Edge(from: "a", to: "b", kind: .lightweight),
                    Edge(from: "b", to: "d", kind: .lightweight),
                    Edge(from: "a", to: "c", kind: .heavyweight, isHighlighted: true, label: "AtoC"),
                    Edge(from: "c", to: "d", kind: .lightweight, isHighlighted: true, label: "Δ3")]
        )),
        GoldenCase(name: "legend", diagram: legendDiagram),
        GoldenCase(name: "legend-top-to-bottom", diagram: legendDiagram,
                   options: DOTWriter.Options(direction: .topToBottom)),
        GoldenCase(name: "legend-minimal", diagram: Diagram(
            nodes: [Node(id: "a"), Node(id: "b", isTarget: true)],
            edges: [Edge(from: "a", to: "b", kind: .lightweight)],
            showLegend: true
        )),
        GoldenCase(name: "every-edge-kind", diagram: Diagram(
            nodes: (0...5).map { Node(id: "k\($0)", isTarget: $0 == 5) },
            edges: Diagram.EdgeKind.allCases.enumerated().map { index, kind in
                Edge(from: "k\(index)", to: "k\(index + 1)", kind: kind, label: kind.rawValue)
            }
        )),
        GoldenCase(name: "collapsed-run", diagram: collapsedRunDiagram),
        GoldenCase(name: "collapsed-run-expanded-small", diagram: collapsedRunDiagram.prefix(12),
                   options: DOTWriter.Options(collapseAbove: 5)),
        GoldenCase(name: "dense-no-labels", diagram: Diagram(
            nodes: (0..<8).map { Node(id: "d\($0)", isTarget: $0 == 7) },
            edges: (0..<8).flatMap { i in [1, 2, 3].compactMap { step in
                i + step < 8 ? Edge(from: "d\(i)", to: "d\(i + step)", kind: .heavyweight, label: "M\(i)_\(i + step)") : nil
            } }
        )),
        GoldenCase(name: "top-to-bottom", diagram: RenderFixtures.chain(20)),
        GoldenCase(name: "duplicates-and-missing", diagram: Diagram(
            nodes: [Node(id: "x"), Node(id: "y"), Node(id: "x", isTarget: true, note: "again")],
            edges: [Edge(from: "x", to: "y", kind: .lightweight),
                    Edge(from: "y", to: "ghost", kind: .unknown),
                    Edge(from: "y", to: "y", kind: .none)]
        )),
        GoldenCase(name: "hostile-names", diagram: RenderFixtures.hostileDiagram),
    ]

    /// Every marker and every kind of step, with a legend.
    static var legendDiagram: Diagram {
        Diagram(
            title: "Everything",
            nodes: [Node(id: "old", isUnknown: true), Node(id: "a", isHighlighted: true),
                    Node(id: "b", inCycle: true), Node(id: "c", inCycle: true),
                    Node(id: "dead", isUnreachable: true),
                    Node(id: "t", isTarget: true, isCurrentVersion: true, isHighlighted: true)],
            edges: [Edge(from: "old", to: "a", kind: .unknown),
                    Edge(from: "a", to: "b", kind: .none),
                    Edge(from: "b", to: "c", kind: .lightweight, inCycle: true),
                    Edge(from: "c", to: "b", kind: .lightweight, inCycle: true),
                    Edge(from: "c", to: "t", kind: .heavyweight, isHighlighted: true, label: "CtoT"),
                    Edge(from: "a", to: "t", kind: .lightweight, isDirectJump: true, isHighlighted: true),
                    Edge(from: "dead", to: "a", kind: .failing)],
            showLegend: true
        )
    }

    /// 250 versions: a failing step at 100 → 101, a highlighted stretch at 200…203, an
    /// unreachable side branch at 50, the target at 250 and the current version at 249.
    static var collapsedRunDiagram: Diagram {
        var nodes = (1...250).map { Node(id: "V\($0)") }
        nodes[249].isTarget = true
        nodes[248].isCurrentVersion = true
        for index in 199...202 { nodes[index].isHighlighted = true }
        nodes.append(Node(id: "V50-side", isUnreachable: true))
        var edges = (1..<250).map { Edge(from: "V\($0)", to: "V\($0 + 1)", kind: $0 == 100 ? .failing : .lightweight) }
        for index in 199...201 { edges[index].isHighlighted = true }
        edges.append(Edge(from: "V50", to: "V50-side", kind: .lightweight))
        return Diagram(title: "Long history", nodes: nodes, edges: edges, showLegend: true)
    }
}

extension Diagram {
    /// The first `count` versions and the steps among them.
    func prefix(_ count: Int) -> Diagram {
        let kept = Array(nodes.prefix(count))
        let names = Set(kept.map(\.id))
        return Diagram(title: title, nodes: kept,
                       edges: edges.filter { names.contains($0.from) && names.contains($0.to) },
                       showLegend: showLegend)
    }
}

/// Whether a DOT line declares a version node (`  n12 [`).
func isNodeLine(_ line: Substring) -> Bool {
    guard line.hasPrefix("  n") else { return false }
    let rest = line.dropFirst(3)
    let digits = rest.prefix { $0.isNumber }
    return !digits.isEmpty && rest.dropFirst(digits.count).hasPrefix(" [")
}

@Suite("DOTWriter")
struct DOTWriterTests {
    @Test("golden DOT", arguments: GoldenCase.all)
    func golden(_ golden: GoldenCase) throws {
        let dot = DOTWriter(options: golden.options).write(golden.diagram)
        let url = RenderFixtures.goldenDirectory.appendingPathComponent("\(golden.name).dot")
        #expect(try GoldenFile.check(Data(dot.utf8), with: url), "\(golden.name).dot differs; RECORD_GOLDENS=1 rewrites it")
    }

    /// In a cycle without a way out, every version on it also cannot reach a target: it is drawn
    /// as on a cycle (orange, no unreachable fill), and the legend shows only samples of what is drawn.
    @Test("a version on a cycle is drawn as on a cycle even when unreachable")
    func cycleWinsOverUnreachable() {
        let diagram = Diagram(
            nodes: [Diagram.Node(id: "A", isUnreachable: true), Diagram.Node(id: "B", isUnreachable: true, inCycle: true),
                    Diagram.Node(id: "C", isUnreachable: true, inCycle: true)],
            edges: [Diagram.Edge(from: "A", to: "B", kind: .lightweight), Diagram.Edge(from: "B", to: "C", kind: .lightweight, inCycle: true),
                    Diagram.Edge(from: "C", to: "B", kind: .lightweight, inCycle: true)],
            showLegend: true)
        let lines = DOTWriter().write(diagram).split(separator: "\n").map(String.init)
        let b = lines.first { $0.contains("label=\"B\"") } ?? ""
        #expect(b.contains("color=\"#f76707\"") && !b.contains("fillcolor") && !b.contains("#e03131"), "\(b)")
        let a = lines.first { $0.contains("label=\"A\"") } ?? ""
        #expect(a.contains("color=\"#e03131\"") && a.contains("fillcolor=\"#ffe3e3\""), "\(a)")
        #expect(lines.contains { $0.contains("label=\"unreachable\"") } && lines.contains { $0.contains("label=\"on a cycle\"") })
        // Without A, nothing is drawn as unreachable: no unreachable sample in the legend.
        var onlyCycle = diagram
        onlyCycle.nodes.removeFirst()
        onlyCycle.edges.removeFirst()
        let legend = DOTWriter().write(onlyCycle)
        #expect(!legend.contains("label=\"unreachable\""))
        #expect(legend.contains("label=\"on a cycle\""))
    }

    @Test("the same diagram always gives the same bytes", arguments: GoldenCase.all)
    func deterministic(_ golden: GoldenCase) {
        let first = DOTWriter(options: golden.options).write(golden.diagram)
        let second = DOTWriter(options: golden.options).write(golden.diagram)
        #expect(first == second)
    }

    struct LabelCase: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: String
        var testDescription: String { expected }
    }

    @Test("label escaping", arguments: [
        LabelCase(name: "plain", expected: "\"plain\""),
        LabelCase(name: "a\"b", expected: "\"a\\\"b\""),
        LabelCase(name: "a\\b", expected: "\"a\\\\b\""),
        LabelCase(name: "\\N", expected: "\"\\\\N\""),
        LabelCase(name: "end\\", expected: "\"end\\\\\""),
        LabelCase(name: "a\nb", expected: "\"a\\nb\""),
        LabelCase(name: "a\rb", expected: "\"a\u{240D}b\""),
        LabelCase(name: "a\u{0}b", expected: "\"a\u{2400}b\""),
        LabelCase(name: "a\u{7F}b\u{FFFF}", expected: "\"a\u{2421}b\u{FFFD}\""),
        LabelCase(name: "&lt;", expected: "\"&amp;lt;\""),
        LabelCase(name: "<b>", expected: "\"<b>\""),
        LabelCase(name: "]; a -> b //", expected: "\"]; a -> b //\""),
    ])
    func labelEscaping(_ label: LabelCase) {
        #expect(DOTWriter.label(label.name) == label.expected)
    }

    /// The fast path for plain ASCII agrees with escaping character by character on every
    /// string of one or two ASCII characters (control characters, quotes, backslashes and `&`
    /// included), and on a few longer and non-ASCII ones.
    @Test("label's plain-ASCII path agrees with escaping each character")
    func labelFastPathAgrees() {
        let ascii = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        var texts = ascii
        for first in ascii { for second in ascii { texts.append(first + second) } }
        texts += ["", "Model 10", "a\u{202E}b", "é", "V1 & V2", "\u{0}end", "x\u{FFFF}"]
        for text in texts {
            #expect(DOTWriter.label(text) == DOTWriter.escapedLabel(text), "\(Array(text.unicodeScalars))")
        }
    }

    /// Node and edge lines are written from memoised attribute lists; each line must be what
    /// writing that element's own attributes gives. Every combination of node markings (with and
    /// without a note) and of step kind and flags (with and without labels), each twice (the
    /// second copy comes from the memo), in a view that draws labels and in a dense one that
    /// drops them but for causes.
    @Test("each node and step line is its own attributes, however many share them", arguments: [false, true])
    func memoisedLinesAreEachElementsOwn(dense: Bool) {
        var nodes: [Diagram.Node] = []
        for mask in 0..<64 {
            for note in [nil, "store"] as [String?] {
                nodes.append(Diagram.Node(id: "V\(nodes.count)", isTarget: mask & 1 != 0, isCurrentVersion: mask & 2 != 0,
                                          isUnreachable: mask & 4 != 0, inCycle: mask & 8 != 0, isHighlighted: mask & 16 != 0,
                                          isUnknown: mask & 32 != 0, note: note))
            }
        }
        var edges: [Diagram.Edge] = []
        for kind in Diagram.EdgeKind.allCases {
            for mask in 0..<16 {
                for label in (dense ? [nil, "Δ3", "M&M"] : [nil, "Δ3"]) as [String?] {
                    let from = nodes[edges.count % nodes.count].id
                    let to = nodes[(edges.count + 1) % nodes.count].id
                    edges.append(Diagram.Edge(from: from, to: to, kind: kind, isDirectJump: mask & 1 != 0, inCycle: mask & 2 != 0,
                                              isHighlighted: mask & 4 != 0, label: label, isWarning: mask & 8 != 0))
                }
            }
        }
        let diagram = Diagram(nodes: nodes + nodes.map { var node = $0; node.id += "'"; return node },
                              edges: edges + edges.map { var edge = $0; edge.from += "'"; edge.to += "'"; return edge })
        let layout = DiagramLayout(diagram)
        #expect(DOTWriter.isDense(nodes: layout.drawnNodeCount, edges: layout.edges.count) == dense)
        let written = DOTWriter(options: .init(expand: true)).write(diagram)
            .split(separator: "\n").map(String.init).filter { $0.hasPrefix("  n") && $0.dropFirst(3).first?.isNumber == true }
        let causes = layout.edges.filter { $0.kind == .failing || $0.isWarning }.count
        let expected = layout.nodes.indices.map { "  n\($0) [\(DOTWriter.attributeList(DOTWriter.nodeAttributes(layout.nodes[$0])))];" }
            + layout.edges.map { edge in
                let showLabel = !dense || ((edge.kind == .failing || edge.isWarning) && causes <= DOTWriter.maxCauseLabels)
                let attributes = DOTWriter.edgeAttributes(edge, showLabel: showLabel)
                return "  n\(edge.from) -> n\(edge.to)\(attributes.isEmpty ? "" : " [\(DOTWriter.attributeList(attributes))]");"
            }
        #expect(written.count == expected.count)
        #expect(written == expected)
    }

    @Test("names reach the DOT text only inside labels")
    func namesOnlyInLabels() {
        let dot = DOTWriter().write(RenderFixtures.hostileDiagram)
        for line in dot.split(separator: "\n") {
            // Strip every quoted string; what is left must be plain DOT vocabulary.
            var outside = ""
            var inString = false
            var escaped = false
            for character in line {
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else {
                    outside.append(character)
                }
            }
            #expect(!inString, "unterminated string in: \(line.prefix(80))")
            let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzLRTB_0123456789 []{}=,;->.")
            #expect(outside.unicodeScalars.allSatisfy { allowed.contains($0) }, "unexpected DOT outside strings: \(outside.prefix(120))")
            for forbidden in ["URL", "href", "tooltip", "id", "class", "comment", "target"] {
                #expect(!outside.contains(" \(forbidden)="), "\(forbidden) attribute in: \(line.prefix(80))")
            }
        }
    }

    @Test("nodes are numbered in chain order; missing versions are added, duplicates merged")
    func numbering() {
        let golden = GoldenCase.all.first { $0.name == "duplicates-and-missing" }
        let dot = DOTWriter().write(golden?.diagram ?? Diagram(nodes: [], edges: []))
        let nodeLines = dot.split(separator: "\n").filter { isNodeLine($0) }
        #expect(nodeLines.count == 3)
        #expect(nodeLines[0].hasPrefix("  n0 [label=\"x\\nagain\""))
        #expect(nodeLines[0].contains("peripheries=2"))
        #expect(nodeLines[1].hasPrefix("  n1 [label=\"y\"]"))
        #expect(nodeLines[2].hasPrefix("  n2 [label=\"ghost\""))
        #expect(nodeLines[2].contains("dashed"))
    }

    struct CollapseCase: Sendable, CustomTestStringConvertible {
        let description: String
        let diagram: Diagram
        let options: DOTWriter.Options
        let drawnNodes: Int
        let collapsedLabels: [String]
        var testDescription: String { description }
    }

    @Test("collapsing long lightweight runs", arguments: [
        CollapseCase(description: "41 versions collapse to the ends",
                     diagram: RenderFixtures.chain(41), options: .init(),
                     drawnNodes: 2, collapsedLabels: ["… 40 lightweight steps …"]),
        CollapseCase(description: "40 versions are not collapsed",
                     diagram: RenderFixtures.chain(40), options: .init(),
                     drawnNodes: 40, collapsedLabels: []),
        CollapseCase(description: "expand keeps every version",
                     diagram: RenderFixtures.chain(201), options: .init(expand: true),
                     drawnNodes: 201, collapsedLabels: []),
        CollapseCase(description: "failing and warning steps split runs",
                     diagram: causeDiagram(120), options: .init(),
                     drawnNodes: 6,
                     collapsedLabels: ["… 30 lightweight steps …", "… 29 lightweight steps …", "… 58 lightweight steps …"]),
        CollapseCase(description: "marked versions split runs",
                     diagram: GoldenCase.collapsedRunDiagram, options: .init(),
                     drawnNodes: 11,
                     collapsedLabels: ["… 49 lightweight steps …", "… 50 lightweight steps …",
                                       "… 99 lightweight steps …", "… 46 lightweight steps …"]),
        CollapseCase(description: "runs shorter than the minimum stay",
                     diagram: RenderFixtures.chain(6), options: .init(collapseAbove: 0, minimumRun: 5),
                     drawnNodes: 6, collapsedLabels: []),
        CollapseCase(description: "a run of exactly the minimum collapses",
                     diagram: RenderFixtures.chain(7), options: .init(collapseAbove: 0, minimumRun: 5),
                     drawnNodes: 2, collapsedLabels: ["… 6 lightweight steps …"]),
        CollapseCase(description: "heavyweight chains never collapse",
                     diagram: RenderFixtures.chain(300, kind: .heavyweight), options: .init(),
                     drawnNodes: 300, collapsedLabels: []),
        CollapseCase(description: "a ring of unmarked versions is left alone",
                     diagram: Diagram(nodes: (0..<5).map { Diagram.Node(id: "r\($0)") },
                                      edges: (0..<5).map { Diagram.Edge(from: "r\($0)", to: "r\(($0 + 1) % 5)", kind: .lightweight) }),
                     options: .init(collapseAbove: 0, minimumRun: 1),
                     drawnNodes: 5, collapsedLabels: []),
    ])
    func collapse(_ test: CollapseCase) {
        let dot = DOTWriter(options: test.options).write(test.diagram)
        let lines = dot.split(separator: "\n")
        let nodeLines = lines.filter { isNodeLine($0) }
        #expect(nodeLines.count == test.drawnNodes)
        let labels = lines.compactMap { line -> String? in
            guard let start = line.range(of: "label=\"… ") else { return nil }
            let rest = line[start.upperBound...]
            guard let end = rest.range(of: "\"") else { return nil }
            return "… " + rest[..<end.lowerBound]
        }
        #expect(labels == test.collapsedLabels)
    }

    /// A lightweight chain of `count` versions whose step 31 → 32 needs a mapping model and whose
    /// step 61 → 62 drops data (a warning), each labelled with its cause.
    static func causeDiagram(_ count: Int) -> Diagram {
        var diagram = RenderFixtures.chain(count)
        diagram.showLegend = true
        diagram.edges[30].kind = .failing
        diagram.edges[30].label = "no mapping model: attribute 'Note.title' changes type"
        diagram.edges[60].isWarning = true
        diagram.edges[60].label = "drops data: attribute 'Note.body' is removed"
        return diagram
    }

    @Test("failing and warning steps keep their cause as label, also in large views; the legend names warnings", arguments: [
        (120, false), (400, false), (400, true),
    ])
    func causes(count: Int, expand: Bool) {
        let dot = DOTWriter(options: .init(expand: expand)).write(Self.causeDiagram(count))
        #expect(dot.contains("n30 -> n31 [color=\"#e03131\", style=\"bold,dashed\", label=\"no mapping model: attribute 'Note.title' changes type\""))
        #expect(dot.contains("n60 -> n61 [color=\"#f59f00\", style=\"solid\", penwidth=2, label=\"drops data: attribute 'Note.body' is removed\", fontcolor=\"#f59f00\"]"))
        #expect(dot.contains("label=\"warning (drops data, or could fail)\""))
        #expect(dot.contains("label=\"needs a mapping model\""))
        #expect(!dot.contains("label=\"on a cycle\"") && !dot.contains("label=\"heavyweight (mapping model)\""))
        #expect(dot.contains("label=\"collapsed lightweight run\"") == !expand)
    }

    @Test("direction: left to right for short chains, top to bottom for long ones", arguments: [
        (16, DOTWriter.Options.Direction.automatic, "rankdir=LR"),
        (17, .automatic, "rankdir=TB"),
        (3, .topToBottom, "rankdir=TB"),
        (100, .leftToRight, "rankdir=LR"),
    ])
    func direction(count: Int, direction: DOTWriter.Options.Direction, expected: String) {
        let dot = DOTWriter(options: .init(direction: direction)).write(RenderFixtures.chain(count))
        #expect(dot.contains(expected))
    }

    @Test("edge labels are dropped in dense and large views", arguments: [
        (10, 15, true), (10, 16, false), (300, 300, true), (301, 301, false),
    ])
    func density(nodes: Int, edges: Int, labelled: Bool) {
        let names = (0..<nodes).map { "v\($0)" }
        let edgeList = (0..<edges).map { i in
            Diagram.Edge(from: names[i % nodes], to: names[(i + 1 + i / nodes) % nodes], kind: .heavyweight, label: "L\(i)")
        }
        let diagram = Diagram(nodes: names.map { Diagram.Node(id: $0) }, edges: edgeList)
        let dot = DOTWriter(options: .init(expand: true)).write(diagram)
        #expect(dot.contains("label=\"L0\"") == labelled)
        #expect(dot.contains("mclimit=0.1") == !labelled)
    }

    @Test("display text replaces only what no output can carry")
    func displayText() {
        #expect(Diagram.displayText("plain \\ \" <> & é") == "plain \\ \" <> & é")
        #expect(Diagram.displayText("a\u{0}\u{1}\u{1F}\t\r\n\u{7F}\u{FFFE}\u{FFFF}\u{80}") ==
                "a\u{2400}\u{2401}\u{241F}\u{2409}\u{240D}\n\u{2421}\u{FFFD}\u{FFFD}\u{80}")
    }

    @Test("JSON of a diagram is stable and round-trips")
    func json() throws {
        let diagram = RenderFixtures.hostileDiagram
        let first = try diagram.jsonData()
        let second = try diagram.rendered(as: .json)
        #expect(first == second)
        let decoded = try RuleCatalogue.jsonDecoder().decode(Diagram.self, from: first)
        #expect(decoded == diagram)
        let text = try #require(String(data: first, encoding: .utf8))
        #expect(text.hasPrefix("{\n  \"edges\" : ["))
    }
}
