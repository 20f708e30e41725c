import Foundation
import Testing
@testable import ChainPlanCore

/// `JSONFragments`: a document whose shared values are encoded once gives exactly the bytes of
/// the plain encoding, wherever the values sit (array elements, object values, any depth), with
/// empty containers and escapes inside them, in arrays written from their elements' texts and in
/// values made after the rest of the document; a document holding a string that looks like a
/// token is encoded plainly.
struct JSONFragmentsTests {
    /// A value that opts in, like `SQLiteWork.Table`.
    struct Row: Encodable, Hashable {
        var name: String
        var columns: [String]
        var nested: [String: [Int]]
        var flag: Bool?

        private enum CodingKeys: String, CodingKey { case name, columns, nested, flag }

        func encode(to encoder: Encoder) throws {
            if let fragments = JSONFragments.current(in: encoder) {
                var container = encoder.singleValueContainer()
                try container.encode(fragments.token(for: self))
                return
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(columns, forKey: .columns)
            try container.encode(nested, forKey: .nested)
            try container.encodeIfPresent(flag, forKey: .flag)
        }
    }

    /// An array written from its shared elements' texts, like `SQLiteWork.tables`.
    struct RowList: Encodable {
        var rows: [Row]

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            if let fragments = JSONFragments.current(in: encoder) {
                try container.encode(fragments.token(forArrayOf: rows))
            } else {
                try container.encode(rows)
            }
        }
    }

    /// A value made later, like a direct jump's SQLite work: a list of rows inside.
    struct Later: Encodable {
        var list: RowList

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            if let fragments = JSONFragments.current(in: encoder) {
                try container.encode(fragments.token(later: { [list] in ["made": list] }))
            } else {
                try container.encode(["made": list])
            }
        }
    }

    struct Document: Encodable {
        var title: String
        var rows: [Row]
        var byName: [String: Row]
        var deeper: [[String: [Row]]]
        var lists: [String: RowList]
        var later: [Later]
        var note: String
    }

    static let plain = Row(name: "ZNOTE", columns: ["ZBODY", "ZTITLE"], nested: ["a": [1, 2]], flag: true)
    static let empty = Row(name: "", columns: [], nested: [:], flag: nil)
    static let escaped = Row(name: "quote \" backslash \\ slash / tab \t newline \n \u{1} é 🐢", columns: ["\\u0001"], nested: ["\"": []], flag: false)

    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        var rows: [Row]
        var note: String = "plain"
        /// Whether the shared encoding is expected (false: the plain one is used instead).
        var shares = true
        var testDescription: String { title }
    }

    static let cases: [Case] = [
        Case(title: "one row", rows: [plain]),
        Case(title: "a row repeated", rows: [plain, plain, plain]),
        Case(title: "empty containers inside a row", rows: [empty, plain, empty]),
        Case(title: "escapes inside a row", rows: [escaped, plain, escaped]),
        Case(title: "no rows", rows: []),
        Case(title: "a string of the document that looks like a token", rows: [plain], note: "\u{1}0\u{1}", shares: false),
        Case(title: "a string of the document that starts like a token", rows: [plain, empty], note: "\u{1}0 and more"),
    ]

    @Test(arguments: cases)
    func sharedEqualsPlain(_ example: Case) throws {
        let rows = example.rows
        let document = Document(title: "t", rows: rows, byName: Dictionary(uniqueKeysWithValues: rows.enumerated().map { ("k\($0.offset)", $0.element) }),
                                deeper: [["x": rows], [:], ["y": rows.reversed()]],
                                lists: ["all": RowList(rows: rows), "none": RowList(rows: []), "first": RowList(rows: Array(rows.prefix(1)))],
                                later: [Later(list: RowList(rows: rows)), Later(list: RowList(rows: []))], note: example.note)
        let shared = CanonicalJSON.encode(document)
        let plain = CanonicalJSON.encode(document, sharing: false)
        #expect(String(decoding: shared, as: UTF8.self) == String(decoding: plain, as: UTF8.self))
        // The plain encoding holds no token; the shared one is spliced unless told otherwise.
        let fragments = JSONFragments()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[JSONFragments.userInfoKey] = fragments
        let tokens = try encoder.encode(document)
        // Each row four times, three lists, two values made later.
        #expect(fragments.uses == rows.count * 4 + 3 + 2)
        #expect((fragments.splice(tokens, encoder: Self.plainEncoder()) != nil) == example.shares)
    }

    static func plainEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Each distinct value is encoded once: four uses of one row are one batch element.
    @Test func distinctValuesAreEncodedOnce() throws {
        let fragments = JSONFragments()
        let encoder = Self.plainEncoder()
        encoder.userInfo[JSONFragments.userInfoKey] = fragments
        _ = try encoder.encode([Self.plain, Self.plain, Self.empty, Self.plain])
        #expect(fragments.uses == 4)
        #expect(fragments.distinct == 2)
    }

    /// The batch splitter finds every element of a pretty-printed array, strings with brackets
    /// and commas included, and refuses what is not one array.
    @Test func elementsOfABatch() throws {
        let values: [[String: [String]]] = [["a": ["[", "]", ","]], [:], ["b": []], ["c": ["\"}\\"]]]
        let bytes = [UInt8](try Self.plainEncoder().encode(values))
        let ranges = try #require(JSONFragments.elements(of: bytes))
        #expect(ranges.count == values.count)
        for (range, value) in zip(ranges, values) {
            let decoded = try JSONDecoder().decode([String: [String]].self, from: Data(bytes[range]))
            #expect(decoded == value)
        }
        #expect(JSONFragments.elements(of: Array("{}".utf8)) == nil)
        #expect(JSONFragments.elements(of: Array("[1] [2]".utf8)) == nil)
        #expect(JSONFragments.elements(of: Array("[1".utf8)) == nil)
    }
}
