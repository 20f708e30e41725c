import Foundation
import Testing
@testable import ChainPlanCore

/// `KeyedEncodingContainer.encode(_:)` and `encodeIfPresent(_:)` with key–value pairs write what
/// the one-line-per-field forms write: every value under its key, a nil one as `null` (encode) or
/// not at all (encodeIfPresent), nested values as themselves.
struct EncodedFieldsTests {
    struct Document: Encodable {
        var name: String
        var count: Int?
        var note: String?
        var list: [Int]

        enum CodingKeys: String, CodingKey { case name, count, note, list, total }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode([.name: name, .count: count, .total: list.reduce(0, +)])
            try container.encodeIfPresent([.note: note, .list: list.isEmpty ? nil : list])
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var title: String
        var count: Int?
        var note: String?
        var list: [Int]
        var json: String
        var testDescription: String { title }
    }

    static let cases = [
        Case(title: "every value present", count: 2, note: "n", list: [1, 2],
             json: #"{"count":2,"list":[1,2],"name":"x","note":"n","total":3}"#),
        Case(title: "nil under encode is null, under encodeIfPresent absent", count: nil, note: nil, list: [],
             json: #"{"count":null,"name":"x","total":0}"#),
    ]

    @Test(arguments: cases)
    func writesTheFields(_ c: Case) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(Document(name: "x", count: c.count, note: c.note, list: c.list))
        #expect(String(decoding: data, as: UTF8.self) == c.json)
    }
}
