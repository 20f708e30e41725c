import Foundation
import Testing
@testable import ChainPlanOutput

/// The byte scan that spares Graphviz's own SVG the XML parser (issue 19, Speed): it vouches for
/// what chainplan renders, and leaves everything it cannot account for to the parser, so every
/// refusal is still the parser's.
@Suite struct SVGQuickScanTests {
    static func vouches(_ text: String) -> Bool {
        Data(text.utf8).withUnsafeBytes { SVGQuickScan.vouches(for: $0.bindMemory(to: UInt8.self)) }
    }

    @Test("Graphviz's SVG of chainplan diagrams is vouched for", arguments: [
        RenderFixtures.hostileDiagram, RenderFixtures.chain(300), DOTWriterTests.causeDiagram(120),
    ])
    func vouchesForRenderedDiagrams(_ diagram: Diagram) throws {
        let dot = DOTWriter().write(diagram)
        let svg = try GraphvizRenderer.render(dot: dot, format: .svg)
        #expect(svg.withUnsafeBytes { SVGQuickScan.vouches(for: $0.bindMemory(to: UInt8.self)) })
    }

    static let svg = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">"

    @Test("anything it cannot account for is left to the parser", arguments: [
        "\(svg)<script>alert(1)</script></svg>",
        "\(svg)<SCRIPT/></svg>",
        "\(svg)<g ONCLICK=\"x()\"/></svg>",
        "\(svg)<a xlink:HREF=\"x\"/></svg>",
        "\(svg)<g style=\"javascript:x\"/></svg>",
        "\(svg)<g style=\"&#106;avascript&#58;x\"/></svg>",
        "\(svg)<g style=\"java&#x09;script&#x3A;x\"/></svg>",
        "\(svg)<?evil x?></svg>",
        "\(svg)<![CDATA[x]]></svg>",
        "<!DOCTYPE svg [<!ENTITY e \"x\">]>\n<svg>&e;</svg>",
        "\(svg)&e;</svg>",
        "\(svg)<!-- a -- b --></svg>",
        "\(svg)<g></svg>",
        "\(svg)</svg><svg/>",
        "\(svg)<g a=\"1\" a=\"2\"/></svg>",
        "\(svg)<g a=\"<\"/></svg>",
        "\(svg)\u{1}</svg>",
        "\(svg)<set attributeName=\"href\"/></svg>",
        "\(svg)<foreignObject/></svg>",
        "\(svg)",
        "text <svg/>",
        // Names already found permitted are remembered; a refused one after them is still seen.
        "\(svg)<g><text>a</text></g><g><text>b</text><script/></g></svg>",
        "\(svg)<g/><gscript/><g/><script/></svg>",
        "\(svg)\((0..<40).map { "<e\($0)/>" }.joined())<e3/><animate/></svg>",
        // Attribute values are checked whole before the scan moves on: every refused byte, anywhere.
        "\(svg)<g a=\"x\u{1}\"/></svg>",
        "\(svg)<g a=\"x\u{7F}y\"/></svg>",
        "\(svg)<g a=\"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33&amp;\"/></svg>",
        "\(svg)<g a='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 <'/></svg>",
        "\(svg)<g xmln=\"a:b\"/></svg>",
        "\(svg)<g a=\"unterminated/></svg>",
        "\(svg)<g a=\"",
    ])
    func leavesTheRestToTheParser(_ text: String) {
        #expect(!Self.vouches(text))
    }

    @Test("many distinct element names, each repeated, are vouched for")
    func repeatedNames() {
        let elements = (0..<40).map { "<e\($0) a=\"1\"><t>x</t></e\($0)>" }.joined()
        #expect(Self.vouches("\(Self.svg)\(elements)\(elements)</svg>"))
    }

    @Test("quotes of the other kind, xmlns colons and white space in values are vouched for", arguments: [
        "\(svg)<g a='say \"x\"' b=\"it's\" c=\"1\t2\n3\r4\"/></svg>",
        "\(svg)<g xmlns:v=\"urn:x:y\"/></svg>",
        "\(svg)<g a=\"\"/></svg>",
    ])
    func permittedValues(_ text: String) {
        #expect(Self.vouches(text))
    }

    @Test("text that is not ASCII is vouched for when it is UTF-8, and never when it is not")
    func nonASCII() {
        #expect(Self.vouches("\(Self.svg)<text a=\"Modèle 2 → 3\">Modèle 2 → 3 ✓</text></svg>"))
        var bytes = Array("\(Self.svg)<text>x</text></svg>".utf8)
        bytes.insert(0xC3, at: bytes.count - 13)  // a lead byte with no continuation
        #expect(!bytes.withUnsafeBufferPointer { SVGQuickScan.vouches(for: $0) })
        #expect(SVGQuickScan.isASCII(UnsafeBufferPointer(start: nil, count: 0)))
    }

    @Test("plain SVG with references in text is vouched for")
    func plainText() {
        #expect(Self.vouches("\(Self.svg)<!-- n0 --><g id=\"n0\" class=\"node\"><title>a&#45;&gt;b &amp; &lt;script&gt;</title></g></svg>\n"))
    }
}
