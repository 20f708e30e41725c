import Foundation
import Testing
@testable import ChainPlanCore

/// Where the first byte that is not UTF-8 sits (1-based line and column, columns counted in
/// characters), as the spec and mapping readers report it. ASCII is stepped over without
/// validation; every multi-byte sequence is validated whole.
@Suite struct TextPositionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var line: Int
        var column: Int
        var testDescription: String { bytes.map { String(format: "%02X", $0) }.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(bytes: Array("ab\n".utf8) + [0xFF], line: 2, column: 1),
        Case(bytes: Array("é\nxy".utf8) + [0xC3], line: 2, column: 3),               // truncated two-byte sequence at the end
        Case(bytes: Array("a→b".utf8) + [0x80], line: 1, column: 4),                  // lone continuation byte
        Case(bytes: Array("ab".utf8) + [0xC0, 0x80], line: 1, column: 3),              // overlong encoding
        Case(bytes: Array("a\r\nb".utf8) + [0xED, 0xA0, 0x80], line: 2, column: 2),    // UTF-16 surrogate
        Case(bytes: Array("😀\n\n".utf8) + [0xF0, 0x9F, 0x98], line: 3, column: 1),    // truncated four-byte sequence
        Case(bytes: [0xF5, 0x80, 0x80, 0x80], line: 1, column: 1),                      // beyond U+10FFFF
        Case(bytes: Array("ñ".utf8) + [0xE2, 0x28, 0xA1], line: 1, column: 2),          // bad continuation
    ]

    @Test(arguments: cases)
    func firstInvalidByte(_ example: Case) {
        let (line, column) = TextPosition.firstInvalidUTF8(in: Data(example.bytes))
        #expect(line == example.line)
        #expect(column == example.column)
    }

    @Test("a slice of a larger Data is read from its own start")
    func slice() {
        let data = Data([0xFF] + Array("ab\nc".utf8) + [0xFE]).dropFirst()
        #expect(TextPosition.firstInvalidUTF8(in: data) == (2, 2))
    }
}
