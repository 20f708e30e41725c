import Testing
@testable import ChainPlanCore
@testable import ChainPlanHashing
@testable import ChainPlanOutput

/// Every escaper that writes names for people shows the same bidirectional controls as visible
/// `\u{…}` text: the one set in `MarkupText.isBidiControl`. (U+061C, the Arabic letter mark, used
/// to reach the terminal raw: `TerminalText` kept a set of its own without it; seen failing
/// before the fix.)
@Suite struct BidiSetTests {
    /// The bidirectional formatting characters: marks, embeddings, overrides, isolates.
    static let controls: [Unicode.Scalar] = [
        "\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
        "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ]

    struct Escaper: CustomStringConvertible, Sendable {
        var description: String
        var escape: @Sendable (String) -> String
    }

    static let escapers: [Escaper] = [
        Escaper(description: "terminal text") { TerminalText.safe($0) },
        Escaper(description: "inert markup text") { MarkupText.inert($0) },
        Escaper(description: "XML") { MarkupText.xml($0) },
        Escaper(description: "Markdown") { MarkupText.markdown($0) },
        Escaper(description: "Markdown code") { MarkupText.markdownCode($0) },
        Escaper(description: "lock quoting") { QuotedText.quote($0, bidiVisible: true) },
        Escaper(description: "Swift string literal") { SwiftNames.literal($0) },
        Escaper(description: "Swift comment") { SwiftNames.comment($0) },
        Escaper(description: "diagram label") { Diagram.displayText($0) },
    ]

    @Test("the shared set holds every bidirectional control", arguments: controls)
    func sharedSet(_ scalar: Unicode.Scalar) {
        #expect(MarkupText.isBidiControl(scalar))
    }

    @Test("every escaper makes every bidirectional control visible", arguments: escapers)
    func escaperShowsEveryControl(_ escaper: Escaper) {
        for scalar in Self.controls {
            let name = "a" + String(Character(scalar)) + "b"
            let escaped = escaper.escape(name)
            #expect(!escaped.unicodeScalars.contains(scalar), "\(escaper) passes U+\(String(scalar.value, radix: 16, uppercase: true)) raw")
        }
    }
}
