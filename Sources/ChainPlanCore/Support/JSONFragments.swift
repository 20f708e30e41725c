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

    /// Distinct values, encoded together with a plain encoder.
    private var values: [any Encodable] = []
    /// Values known only once the document is encoded (`token(later:)`), encoded together
    /// with a store of their own (their rows shared in turn).
    private var late: [() -> any Encodable] = []
    private enum Entry {
        /// `values[n]`.
        case value(Int)
        /// `late[n]`.
        case late(Int)
        /// An array of the values of these entries (each a `.value`).
        case array([Int])
    }
    /// Token number → where its text is.
    private var entries: [Entry] = []
    /// Tokens handed out (each is written once into the document).
    private(set) var uses = 0
    /// Distinct values among them (each encoded once).
    var distinct: Int { values.count + late.count }

    package init() {}

    /// The token standing for `value` in the document.
    package func token<Value: Encodable & Hashable>(for value: Value) -> String {
        uses += 1
        return Self.token(entry(for: value))
    }

    /// The token standing for the array of `elements` (each shared as `token(for:)` shares it):
    /// the array is written from its elements' texts, without encoding them where it occurs.
    package func token<Value: Encodable & Hashable>(forArrayOf elements: [Value]) -> String {
        uses += 1
        entries.append(.array(elements.map(entry)))
        return Self.token(entries.count - 1)
    }

    /// The token standing for the value `make` gives, called once the rest of the document is
    /// encoded (a result still being computed on another thread meanwhile). Not shared.
    package func token(later make: @escaping () -> any Encodable) -> String {
        uses += 1
        entries.append(.late(late.count))
        late.append(make)
        return Self.token(entries.count - 1)
    }

    /// Entries by value, one index per type (a typed dictionary: `AnyHashable` spent more on
    /// unboxing than on comparing).
    private final class Index<Value: Hashable> {
        var entries: [Value: Int] = [:]
    }
    private var indexes: [ObjectIdentifier: AnyObject] = [:]

    /// The entry of `value`'s text, made the first time.
    private func entry<Value: Encodable & Hashable>(for value: Value) -> Int {
        let index: Index<Value>
        if let known = indexes[ObjectIdentifier(Value.self)] as? Index<Value> {
            index = known
        } else {
            index = Index<Value>()
            indexes[ObjectIdentifier(Value.self)] = index
        }
        if let known = index.entries[value] { return known }
        let id = entries.count
        index.entries[value] = id
        entries.append(.value(values.count))
        values.append(value)
        return id
    }

    private static func token(_ id: Int) -> String { "\u{1}\(id)\u{1}" }

    private struct Boxed: Encodable {
        var value: any Encodable
        func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
    }

    /// The pretty-printed array of `values`, split into its elements' lines as written at depth
    /// 0: the first as it is, the others without the two spaces of the array's own level (an
    /// empty line, inside an empty container, stays empty).
    private static func elementLines(_ values: [any Encodable], encoder: JSONEncoder) -> [[ArraySlice<UInt8>]]? {
        guard !values.isEmpty else { return [] }
        guard let batch = try? encoder.encode(values.map(Boxed.init)) else { return nil }
        let bytes = [UInt8](batch)
        guard let elements = elements(of: bytes), elements.count == values.count else { return nil }
        return elements.map { range in
            bytes[range].split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().map { index, line in
                index == 0 || line.isEmpty ? line : line.dropFirst(2)
            }
        }
    }

    /// A token at `position` of `bytes` (its opening quote): its number and the position after
    /// its closing quote.
    private static func token(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (id: Int, end: Int)? {
        guard bytes[position] == 0x22, isEscapedOne(bytes, position + 1) else { return nil }
        var cursor = position + 7
        var id = 0
        var digits = 0
        while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39, digits < 9 {
            id = id * 10 + Int(bytes[cursor] - 0x30)
            cursor += 1
            digits += 1
        }
        guard digits > 0, isEscapedOne(bytes, cursor), cursor + 6 < bytes.count, bytes[cursor + 6] == 0x22 else { return nil }
        return (id, cursor + 7)
    }

    /// `document` (encoded with this store) with every token replaced by its value's text, or nil
    /// when the tokens found are not exactly those handed out. `encoder`: a plain one (no store).
    func splice(_ document: Data, encoder: JSONEncoder) -> Data? {
        guard uses > 0 else { return document }
        // Values made later first, with this store (their rows shared with the document's, as
        // tokens expanded where they are written), then every distinct value plainly.
        let lateEncoder = JSONEncoder()
        lateEncoder.outputFormatting = encoder.outputFormatting
        lateEncoder.userInfo[Self.userInfoKey] = self
        let made = late.map { $0() }
        guard let resolved = Self.elementLines(made, encoder: lateEncoder),
              let early = Self.elementLines(values, encoder: encoder) else { return nil }
        let entries = entries
        let spaces = [UInt8](repeating: 0x20, count: 256)
        func indentation(_ count: Int, to output: inout [UInt8]) {
            if count <= spaces.count { output.append(contentsOf: spaces[..<count]) } else { output.append(contentsOf: repeatElement(0x20, count: count)) }
        }
        var found = 0
        var valid = true
        /// Writes `line` (of a value made later), expanding its tokens as written on a line
        /// indented by `indent` spaces.
        func writeExpanding(_ line: ArraySlice<UInt8>, indent: Int, to output: inout [UInt8]) {
            line.withUnsafeBufferPointer { bytes in
                var copied = 0
                var position = 0
                var leading = 0  // the line's own indentation
                while leading < bytes.count, bytes[leading] == 0x20 { leading += 1 }
                while position < bytes.count {
                    guard bytes[position] == 0x22, let (id, end) = Self.token(in: bytes, at: position), id < entries.count else {
                        position += 1
                        continue
                    }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<position]))
                    found += 1
                    write(id, indent: indent + leading, to: &output)
                    position = end
                    copied = end
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            }
        }
        /// A shared value's text at an indentation, once made (most uses of a row sit at one depth).
        struct Placed: Hashable {
            var position: Int
            var indent: Int
        }
        var written: [Placed: [UInt8]] = [:]
        /// Writes entry `id`'s text on a line indented by `indent` spaces.
        func write(_ id: Int, indent: Int, to output: inout [UInt8]) {
            switch entries[id] {
            case .value(let position):
                let key = Placed(position: position, indent: indent)
                if let text = written[key] {
                    output.append(contentsOf: text)
                    return
                }
                var text: [UInt8] = []
                for (index, line) in early[position].enumerated() {
                    if index > 0 {
                        text.append(0x0A)
                        if !line.isEmpty { indentation(indent, to: &text) }
                    }
                    text.append(contentsOf: line)
                }
                written[key] = text
                output.append(contentsOf: text)
            case .late(let position):
                guard position < resolved.count else {
                    valid = false
                    return
                }
                for (index, line) in resolved[position].enumerated() {
                    if index > 0 {
                        output.append(0x0A)
                        if !line.isEmpty { indentation(indent, to: &output) }
                    }
                    writeExpanding(line, indent: indent, to: &output)
                }
            case .array(let elements):
                // As the encoder writes an array: `[`, each element on its own line two spaces
                // deeper, commas after all but the last, `]` on the array's indentation; an empty
                // one with an empty line between its brackets.
                output.append(0x5B)
                output.append(0x0A)
                for (offset, element) in elements.enumerated() {
                    indentation(indent + 2, to: &output)
                    write(element, indent: indent + 2, to: &output)
                    if offset < elements.count - 1 { output.append(0x2C) }
                    output.append(0x0A)
                }
                if elements.isEmpty { output.append(0x0A) }
                indentation(indent, to: &output)
                output.append(0x5D)
            }
        }
        let spliced = document.withUnsafeBytes { raw -> [UInt8] in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var output: [UInt8] = []
            output.reserveCapacity(count * 2)
            var copied = 0  // bytes of the document already in the output
            var position = 0
            // A token is `"\u0001<digits>\u0001"`: found by its first backslash.
            while position < count, let base = bytes.baseAddress,
                  let hit = memchr(base + position, 0x5C, count - position) {
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                position = at + 1
                guard at > 0, let (id, end) = Self.token(in: bytes, at: at - 1), id < entries.count else { continue }
                found += 1
                // The indentation of the token's line.
                var lineStart = at - 1
                while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                var indent = 0
                while lineStart + indent < at - 1, bytes[lineStart + indent] == 0x20 { indent += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<(at - 1)]))
                write(id, indent: indent, to: &output)
                position = end
                copied = end
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
            return output
        }
        // Every token handed out (those of the values made later too) found once, and no other.
        guard valid, found == uses else { return nil }
        return Data(spliced)
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
