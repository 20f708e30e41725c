import Foundation
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

/// Graphviz is one process-wide resource: these tests run one at a time, so that the memory
/// test measures only its own renders.
@Suite("GraphvizRenderer", .serialized)
struct GraphvizRendererTests {
    // MARK: Hostile names

    @Test("every hostile name is drawn exactly, in well-formed SVG")
    func hostileNamesRenderExactly() throws {
        let diagram = RenderFixtures.hostileDiagram
        let dot = DOTWriter().write(diagram)
        let svg = try GraphvizRenderer.render(dot: dot, format: .svg)
        let content = try SVGContent(svg)
        let versionNodes = content.nodeTexts.keys.filter { $0.hasPrefix("n") && Int($0.dropFirst()) != nil }
        #expect(versionNodes.count == RenderFixtures.hostileNames.count)
        for (index, name) in RenderFixtures.hostileNames.enumerated() {
            let drawn = try #require(content.nodeTexts["n\(index)"], "node n\(index) missing")
            #expect(drawn == RenderFixtures.expectedLines(name), "node n\(index): \(name.debugDescription.prefix(60))")
        }
        // Edge labels are hostile too (edges i → i+1 carry name i).
        for index in 0..<RenderFixtures.hostileNames.count - 1 {
            let texts = try #require(content.edgeTexts["n\(index)->n\(index + 1)"], "edge \(index) missing")
            #expect(texts == RenderFixtures.expectedLines(RenderFixtures.hostileNames[index]), "edge \(index)")
        }
        // The title is a hostile name too.
        let text = try #require(String(data: svg, encoding: .utf8))
        #expect(text.contains(">line one</text>") && text.contains(">line two</text>"))
    }

    @Test("a 10,000-character name renders whole")
    func longName() throws {
        let name = String(repeating: "0123456789", count: 1_000)
        let diagram = Diagram(nodes: [.init(id: name), .init(id: "b", isTarget: true)],
                              edges: [.init(from: name, to: "b", kind: .lightweight, label: name)])
        let svg = try diagram.rendered(as: .svg)
        let content = try SVGContent(svg)
        #expect(content.nodeTexts["n0"] == [name])
        #expect(content.edgeTexts == ["n0->n1": [name]])
    }

    @Test("output carries no active content", arguments: [RenderFormat.svg])
    func noActiveContent(_ format: RenderFormat) throws {
        let svg = try RenderFixtures.hostileDiagram.rendered(as: format)
        let content = try SVGContent(svg)
        #expect(!content.elements.contains { ["script", "foreignObject", "a", "iframe"].contains($0) })
        #expect(!content.attributes.contains { $0.lowercased().hasPrefix("on") || $0.lowercased().hasSuffix("href") })
        let text = try #require(String(data: svg, encoding: .utf8))
        #expect(!text.contains("<script"))
        #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    struct ActiveCase: Sendable, CustomTestStringConvertible {
        let dot: String
        let finding: String
        var testDescription: String { finding }
    }

    @Test("SVG with links or handlers is refused", arguments: [
        ActiveCase(dot: "digraph { a [URL=\"javascript:alert(1)\"] }", finding: "link attribute xlink:href on <a>"),
        ActiveCase(dot: "digraph { a [href=\"http://example.com\"] }", finding: "link attribute xlink:href on <a>"),
        ActiveCase(dot: "digraph { a [tooltip=\"x\" target=\"_blank\" URL=\"x\"] }", finding: "link attribute xlink:href on <a>"),
    ])
    func activeContentRefused(_ test: ActiveCase) {
        #expect(throws: RenderError.activeContent(test.finding)) {
            try GraphvizRenderer.render(dot: test.dot, format: .svg)
        }
    }

    @Test("the safety check refuses scripts, handlers and javascript: values", arguments: [
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>", "element <script>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><g onclick=\"x()\"/></svg>", "attribute onclick on <g>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><g ONLOAD=\"x()\"/></svg>", "attribute ONLOAD on <g>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><g style=\"java script :x\"/></svg>", "javascript: in attribute style on <g>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><foreignObject/></svg>", "element <foreignObject>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><set attributeName=\"href\"/></svg>", "element <set>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><?evil x?></svg>", "processing instruction <?evil?>"),
        // The parser would crash on this one (no data): refused before it.
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><?evil?></svg>", "processing instruction without data"),
    ])
    func safetyCheck(svg: String, finding: String) {
        do {
            try SVGSafety.check(Data(svg.utf8))
            Issue.record("accepted: \(svg)")
        } catch let RenderError.activeContent(what) {
            #expect(what.hasPrefix(finding), "got \(what)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("the safety check accepts Graphviz's own SVG")
    func safetyAcceptsPlainSVG() throws {
        let svg = try GraphvizRenderer.render(dot: "digraph { a -> b }", format: .svg)
        try SVGSafety.check(svg)
        let text = try #require(String(data: svg, encoding: .utf8))
        #expect(text.contains("<!DOCTYPE svg"))
        #expect(text.contains("<title>a&#45;&gt;b</title>"))
    }

    // MARK: Goldens render

    @Test("every golden diagram renders to SVG", arguments: GoldenCase.all)
    func goldensRender(_ golden: GoldenCase) throws {
        let svg = try golden.diagram.rendered(as: .svg, writer: DOTWriter(options: golden.options))
        let content = try SVGContent(svg)
        #expect(!content.nodeTexts.isEmpty)
    }

    @Test("an empty diagram renders")
    func emptyDiagram() throws {
        let svg = try Diagram(title: "nothing", nodes: [], edges: [], showLegend: true).rendered(as: .svg)
        let content = try SVGContent(svg)
        #expect(content.nodeTexts.isEmpty)
        #expect(String(decoding: svg, as: UTF8.self).contains(">nothing</text>"))
    }

    @Test("a graph with a cycle renders, with its cycle edges drawn orange")
    func cycleRenders() throws {
        let golden = try #require(GoldenCase.all.first { $0.name == "cycle" })
        let svg = try golden.diagram.rendered(as: .svg)
        let text = try #require(String(data: svg, encoding: .utf8))
        let content = try SVGContent(svg)
        #expect(content.nodeTexts["n0"] == ["A"])
        #expect(content.nodeTexts["n3"] == ["D"])
        #expect(content.edgeTexts.count == 4)
        #expect(text.components(separatedBy: "stroke=\"#f76707\"").count - 1 >= 3 + 2)
    }

    // MARK: Determinism

    @Test("rendering twice gives identical bytes", arguments: [RenderFormat.svg, .png, .pdf, .json])
    func deterministic(_ format: RenderFormat) throws {
        let diagram = GoldenCase.collapsedRunDiagram
        let first = try diagram.rendered(as: format)
        let second = try diagram.rendered(as: format)
        #expect(!first.isEmpty)
        #expect(first == second)
    }

    @Test("formats start with their signatures", arguments: [
        (RenderFormat.svg, "<?xml"), (.png, "\u{89}PNG"), (.pdf, "%PDF-"), (.json, "{"), (.dot, "digraph"),
    ])
    func signatures(format: RenderFormat, prefix: String) throws {
        let data = try GraphvizRenderer.render(dot: "digraph { a -> b }", format: format)
        let expected = Data(prefix.unicodeScalars.map { UInt8($0.value) })
        #expect(data.prefix(expected.count) == expected)
    }

    @Test("PDF creation date is fixed")
    func pdfDate() throws {
        let pdf = try GraphvizRenderer.render(dot: "digraph { a -> b }", format: .pdf)
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.contains("/CreationDate (D:19700101000000"))
        let fixed = PDFNormalizer.fixingCreationDate(Data("x/CreationDate (D:20261121141545Z)".utf8))
        #expect(fixed == Data("x/CreationDate (D:19700101000000Z)".utf8))
        let untouched = Data("x/CreationDate (D:2026)".utf8)
        #expect(PDFNormalizer.fixingCreationDate(untouched) == untouched)
    }

    @Test("oversized drawings are scaled to fit PNG and PDF pages")
    func oversized() throws {
        let name = String(repeating: "0123456789", count: 1_000)  // about 100,000 points wide
        let diagram = Diagram(nodes: [.init(id: name), .init(id: "b")],
                              edges: [.init(from: name, to: "b", kind: .lightweight)])
        let png = try GraphvizRenderer.renderWithWarnings(dot: DOTWriter().write(diagram), format: .png)
        #expect(png.warnings.isEmpty)
        let header = [UInt8](png.data.prefix(24))
        try #require(header.count == 24)
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width > 20_000 && width <= 30_000, "PNG width \(width)")
        #expect(height > 0 && width * height <= 40_000_000)

        let pdf = try GraphvizRenderer.render(dot: DOTWriter().write(diagram), format: .pdf)
        let text = String(decoding: pdf, as: UTF8.self)
        let box = try #require(text.range(of: "/MediaBox [ 0 0 "))
        let numbers = text[box.upperBound...].prefix { $0 != "]" }.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 2)
        #expect((numbers.first ?? 0) > 10_000 && (numbers.first ?? .infinity) <= 14_400, "PDF page \(numbers)")
    }

    @Test(".dot returns the input without Graphviz")
    func dotIdentity() throws {
        let input = "not even DOT \u{0}"
        #expect(try GraphvizRenderer.render(dot: input, format: .dot) == Data(input.utf8))
    }

    // MARK: Errors

    @Test("invalid DOT is reported with Graphviz's message, and the next render works")
    func invalidDOT() throws {
        do {
            _ = try GraphvizRenderer.render(dot: "digraph { a -> }", format: .svg)
            Issue.record("accepted invalid DOT")
        } catch let RenderError.invalidDOT(messages) {
            #expect(messages.contains { $0.contains("syntax error in line") && $0.contains("near '}'") }, "\(messages)")
        }
        let svg = try GraphvizRenderer.render(dot: "digraph { a -> b }", format: .svg)
        #expect(try SVGContent(svg).nodeTexts.count == 2)
    }

    @Test("NUL in DOT text is refused")
    func nulRefused() {
        #expect(throws: RenderError.invalidDOT(messages: ["the DOT text contains a NUL character"])) {
            try GraphvizRenderer.render(dot: "digraph { a }\u{0}digraph { b }", format: .svg)
        }
    }

    @Test("a missing layout engine is reported as missing Graphviz support")
    func pluginsMissing() throws {
        do {
            _ = try GraphvizEngine.shared.run(dot: "digraph { a }", format: .svg, limits: .init(), engine: "nosuch")
            Issue.record("laid out with a missing engine")
        } catch let RenderError.graphvizUnavailable(messages) {
            #expect(messages.contains { $0.contains("Layout type: \"nosuch\" not recognized") }, "\(messages)")
        }
        // Graphviz is still usable afterwards.
        #expect(try SVGContent(GraphvizRenderer.render(dot: "digraph { a }", format: .svg)).nodeTexts.count == 1)
    }

    @Test("the missing-Graphviz error says how to install it")
    func pluginsMissingMessage() {
        let error = RenderError.graphvizUnavailable(messages: ["There is no layout engine support for \"dot\""])
        #expect(error.description.contains("apt-get install graphviz"))
        #expect(error.description.contains("dot -c"))
        #expect(error.description.contains("--format dot"))
    }

    @Test("budgets are enforced before layout", arguments: [
        (GraphvizRenderer.Limits(maxNodes: 9), RenderError.graphTooLarge(nodes: 10, edges: 9, maxNodes: 9, maxEdges: 12_000)),
        (GraphvizRenderer.Limits(maxEdges: 8), RenderError.graphTooLarge(nodes: 10, edges: 9, maxNodes: 6_000, maxEdges: 8)),
        (GraphvizRenderer.Limits(maxDOTBytes: 10),
         RenderError.inputTooLarge(bytes: DOTWriter().write(RenderFixtures.chain(10)).utf8.count, limit: 10)),
    ])
    func budgets(limits: GraphvizRenderer.Limits, expected: RenderError) {
        let diagram = RenderFixtures.chain(10)
        #expect(throws: expected) {
            try diagram.rendered(as: .svg, limits: limits)
        }
        #expect(expected.description.contains("--format dot"))
    }

    @Test("a layout that outlives its time limit is abandoned; later renders wait for it, then work")
    func timeout() throws {
        // Seconds of layout: a dense graph with edge labels, without the writer's effort limits.
        var dot = "digraph { "
        for i in 0..<300 {
            for step in [1, 2, 5] where i + step < 300 { dot += "a\(i) -> a\(i + step) [label=\"l\(i)_\(step)\"]; " }
        }
        dot += "}"
        #expect(throws: RenderError.timedOut(seconds: 0.2)) {
            try GraphvizRenderer.render(dot: dot, format: .svg, limits: .init(timeout: .milliseconds(200)))
        }
        #expect(throws: RenderError.busy(seconds: 0.05)) {
            try GraphvizRenderer.render(dot: "digraph { a }", format: .svg, limits: .init(timeout: .milliseconds(50)))
        }
        let svg = try GraphvizRenderer.render(dot: "digraph { x -> y }", format: .svg, limits: .init(timeout: .seconds(120)))
        #expect(try SVGContent(svg).nodeTexts.count == 2)
    }

    @Test("Graphviz warnings are collected, not printed")
    func warningsCollected() throws {
        let output = try GraphvizRenderer.renderWithWarnings(
            dot: "digraph { a [shape=nosuchshape] }", format: .svg)
        #expect(output.warnings.contains { $0.contains("using box for unknown shape nosuchshape") }, "\(output.warnings)")
        let clean = try GraphvizRenderer.renderWithWarnings(dot: "digraph { a }", format: .svg)
        #expect(clean.warnings.isEmpty)
    }

    // MARK: Memory

    @Test("rendering 150 times does not grow memory")
    func noLeak() throws {
        let dot = DOTWriter(options: .init(expand: true)).write(RenderFixtures.chain(400))
        for _ in 0..<10 { _ = try GraphvizRenderer.render(dot: dot, format: .svg) }
        // The resident size is the whole test process's, and other suites run alongside this one
        // (15 to 128 MB of growth was seen in one window under load from their allocations). A
        // leak grows the process in every batch; another suite's allocations rarely fall in all
        // three. So the smallest growth of three batches of 50 renders is bounded: a leaked layout
        // of this 400-node graph would cost far more than 32 MB over 50 renders.
        var growths: [Int] = []
        for _ in 0..<3 {
            let before = try residentBytes()
            for _ in 0..<50 { _ = try GraphvizRenderer.render(dot: dot, format: .svg) }
            growths.append(try residentBytes() - before)
        }
        let smallest = growths.min() ?? 0
        #expect(smallest < 32 << 20, "RSS grew by \(growths.map { "\($0 >> 10) KiB" }.joined(separator: ", ")) over three batches of 50 renders")
    }
}
