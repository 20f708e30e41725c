import Foundation

/// Values that recur many times in one JSON document, each encoded once and copied into every
/// place it occurs, byte for byte what encoding it at that place gives.
///
/// A long history's direct jumps list thousands of equal table rows (`paths --deferred --format
/// json` on WooCommerce: 10,470 rows, far fewer distinct ones). A type opts in by encoding, when
/// `JSONFragments.current(in:)` gives a store, the store's token instead of its fields;
/// `CanonicalJSON.encode` then encodes the distinct values together and puts each one's text,
/// indented to its place, where its tokens are. A token is a string no chainplan value writes
/// (`"\u0001<number>\u0001"`); should a document hold one anyway, or any count differ from the
/// tokens handed out, the document is encoded again without the store.
///
/// Example (the tests run it): `{"a": [R, R], "b": R}` with row `R` shared encodes to exactly
/// the bytes of the plain encoding, with `R` encoded once.
/// Used by the one encoder it is given to, on that encoder's thread (hence unchecked `Sendable`,
/// which `userInfo` asks of its values).
package final class JSONFragments: @unchecked Sendable {
    package static let userInfoKey = CodingUserInfoKey(rawValue: "chainplan.jsonFragments")!

    /// The store of the encoder at hand, if it shares fragments.
    package static func current(in encoder: Encoder) -> JSONFragments? {
        encoder.userInfo[userInfoKey] as? JSONFragments
    }

    private var index: [AnyHashable: Int] = [:]
    private var values: [any Encodable] = []
    /// Tokens handed out (each is written once into the document).
    private(set) var uses = 0
    /// Distinct values among them (each encoded once).
    var distinct: Int { values.count }

    package init() {}

    /// The token standing for `value` in the document.
    package func token<Value: Encodable & Hashable>(for value: Value) -> String {
        uses += 1
        let key = AnyHashable(value)
        let id: Int
        if let known = index[key] {
            id = known
        } else {
            id = values.count
            index[key] = id
            values.append(value)
        }
        return "\u{1}\(id)\u{1}"
    }

    private struct Boxed: Encodable {
        var value: any Encodable
        func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
    }

    /// `document` (encoded with this store) with every token replaced by its value's text, or nil
    /// when the tokens found are not exactly those handed out.
    func splice(_ document: Data, encoder: JSONEncoder) -> Data? {
        guard uses > 0 else { return document }
        guard let batch = try? encoder.encode(values.map(Boxed.init)) else { return nil }
        let batchBytes = [UInt8](batch)
        guard let elements = Self.elements(of: batchBytes), elements.count == values.count else { return nil }
        // Each element's lines as written at depth 0: the first as it is, the others without the
        // two spaces of the batch's own level (an empty line, inside an empty container, stays empty).
        let lines: [[ArraySlice<UInt8>]] = elements.map { range in
            batchBytes[range].split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().map { index, line in
                index == 0 || line.isEmpty ? line : line.dropFirst(2)
            }
        }
        return document.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var output: [UInt8] = []
            output.reserveCapacity(count + batchBytes.count)
            var found = 0
            var copied = 0  // bytes of the document already in the output
            var position = 0
            // A token is `"\u0001<digits>\u0001"`: found by its first backslash.
            while position < count, let base = bytes.baseAddress,
                  let hit = memchr(base + position, 0x5C, count - position) {
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                position = at + 1
                guard at > 0, bytes[at - 1] == 0x22, Self.isEscapedOne(bytes, at) else { continue }
                var cursor = at + 6
                var id = 0
                var digits = 0
                while cursor < count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39, digits < 9 {
                    id = id * 10 + Int(bytes[cursor] - 0x30)
                    cursor += 1
                    digits += 1
                }
                guard digits > 0, Self.isEscapedOne(bytes, cursor), cursor + 6 < count, bytes[cursor + 6] == 0x22,
                      id < lines.count else { continue }
                found += 1
                // The indentation of the token's line.
                var lineStart = at - 1
                while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                var indent = 0
                while lineStart + indent < at - 1, bytes[lineStart + indent] == 0x20 { indent += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<(at - 1)]))
                for (index, line) in lines[id].enumerated() {
                    if index > 0 {
                        output.append(0x0A)
                        if !line.isEmpty { output.append(contentsOf: repeatElement(0x20, count: indent)) }
                    }
                    output.append(contentsOf: line)
                }
                position = cursor + 7
                copied = position
            }
            guard found == uses else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
            return Data(output)
        }
    }

    /// Whether `\u0001` starts at `position`.
    private static func isEscapedOne(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int) -> Bool {
        position + 6 <= bytes.count && bytes[position] == 0x5C && bytes[position + 1] == 0x75 && bytes[position + 2] == 0x30
            && bytes[position + 3] == 0x30 && bytes[position + 4] == 0x30 && bytes[position + 5] == 0x31
    }

    /// The byte ranges of the elements of a pretty-printed JSON array, or nil when it is not one.
    static func elements(of bytes: [UInt8]) -> [Range<Int>]? {
        guard bytes.first == 0x5B else { return nil }
        var ranges: [Range<Int>] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start: Int?
        var lastSignificant = 0
        for (position, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                    lastSignificant = position
                }
                continue
            }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09:
                continue
            case 0x5B, 0x7B:  // [ {
                if depth == 1, start == nil { start = position }
                depth += 1
            case 0x5D, 0x7D:  // ] }
                depth -= 1
                if depth == 0 {
                    if let begin = start { ranges.append(begin..<(lastSignificant + 1)) }
                    return position == bytes.count - 1 ? ranges : nil
                }
            case 0x2C:  // ,
                if depth == 1 {
                    guard let begin = start else { return nil }
                    ranges.append(begin..<(lastSignificant + 1))
                    start = nil
                    continue
                }
            case 0x22:
                if depth == 1, start == nil { start = position }
                inString = true
            default:
                if depth == 1, start == nil { start = position }
            }
            lastSignificant = position
        }
        return nil
    }
}
