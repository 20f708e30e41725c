import Foundation

/// A one-pass byte scan that vouches for the SVG documents Graphviz writes for chainplan's own
/// DOT, so that ``SVGSafety/check(_:)`` runs the full XML parser only on anything else.
///
/// Conservative by construction: it answers `true` only for a document it can fully account for,
/// and every refusal of ``SVGSafety`` is still made by the parser. It accepts exactly this shape:
/// valid UTF-8 without control characters other than tab, line feed and carriage return; an
/// optional `<?xml …?>` declaration first; comments without `--` inside; one `<!DOCTYPE …>`
/// without an internal subset before the root; one root element; elements and attributes named
/// with ASCII letters, digits, `_`, `:`, `.` and `-`; attribute values in double or single quotes
/// with no `<`; every tag closed in order; text and values whose `&` starts one of
/// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#N;` `&#xH;`; nothing but white space outside the
/// root; no `]]>` in text. It also finds nothing ``SVGSafety`` refuses: no element of
/// ``SVGSafety/refusedElements``, no attribute whose local name starts with `on` or is `href`, no
/// other processing instruction, no CDATA section, and no `:` in an attribute value unless it is
/// a `xmlns…` declaration. Anything else (including what would be fine XML) returns `false`.
enum SVGQuickScan {
    static func vouches(for bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isASCII(bytes) || String(validating: bytes, as: UTF8.self) != nil else { return false }
        var scanner = Scanner(bytes: bytes)
        return scanner.scanDocument()
    }

    /// ASCII is valid UTF-8: checked in one pass over whole vectors, without building the String
    /// that validating any other text needs.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        return high < 0x80
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Open elements' names, as byte ranges of `bytes`.
        var open: [Range<Int>] = []
        var sawRoot = false
        var sawDoctype = false
        /// Element names already found permitted: a drawing repeats a handful of names
        /// thousands of times, and comparing bytes costs less than building a String each time.
        var permittedNames: [Range<Int>] = []
        /// The current start tag's attribute names (kept to reuse its storage).
        var attributeNames: [Range<Int>] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

        static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
            default: false
            }
        }

        /// The bytes of two ranges of `bytes` are the same.
        func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            guard a.count == b.count else { return false }
            guard let base = bytes.baseAddress else { return true }
            return memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
        }

        /// The end of the name starting at `start` (ASCII name bytes only).
        func nameEnd(from start: Int) -> Int {
            var cursor = start
            while cursor < bytes.count, Self.isNameByte(bytes[cursor]) { cursor += 1 }
            return cursor
        }

        func starts(with literal: StaticString, at position: Int) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            let pointer = literal.utf8Start
            for offset in 0..<count where bytes[position + offset] != pointer[offset] { return false }
            return true
        }

        /// The position just after the first `terminator` at or after `position`, or nil.
        func after(_ terminator: StaticString, from position: Int) -> Int? {
            let first = terminator.utf8Start[0]
            var cursor = position
            while cursor < bytes.count {
                if bytes[cursor] == first, starts(with: terminator, at: cursor) { return cursor + terminator.utf8CodeUnitCount }
                cursor += 1
            }
            return nil
        }

        mutating func scanDocument() -> Bool {
            if starts(with: "<?xml ", at: 0) || starts(with: "<?xml?>", at: 0) {
                guard let end = after("?>", from: 0) else { return false }
                index = end
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    guard scanMarkup() else { return false }
                } else {
                    guard scanText() else { return false }
                }
            }
            return sawRoot && open.isEmpty
        }

        /// Text up to the next `<`: white space only outside the root.
        mutating func scanText() -> Bool {
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
                let byte = bytes[index]
                if byte < 0x20 && !Self.isSpace(byte) || byte == 0x7F { return false }
                if open.isEmpty && !Self.isSpace(byte) { return false }
                if byte == UInt8(ascii: "&") {
                    guard scanReference() else { return false }
                    continue
                }
                if byte == UInt8(ascii: "]"), starts(with: "]]>", at: index) { return false }
                index += 1
            }
            return true
        }

        /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#N;` `&#xH;` at `index`.
        mutating func scanReference() -> Bool {
            for entity: StaticString in ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"] where starts(with: entity, at: index) {
                index += entity.utf8CodeUnitCount
                return true
            }
            guard starts(with: "&#", at: index) else { return false }
            var cursor = index + 2
            let hex = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < bytes.count, cursor - digitsStart < 8 {
                let byte = bytes[cursor]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: digit = .max
                }
                guard digit != .max else { break }
                value = value * (hex ? 16 : 10) + digit
                cursor += 1
            }
            guard cursor > digitsStart, cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";") else { return false }
            // A character XML allows, and not one that could spell a scheme or markup in a value.
            guard value == 0x09 || value == 0x0A || value == 0x0D || (value >= 0x20 && value < 0xD800) || (value >= 0xE000 && value <= 0xFFFD)
                    || (value >= 0x10000 && value <= 0x10FFFF) else { return false }
            index = cursor + 1
            return true
        }

        mutating func scanMarkup() -> Bool {
            if starts(with: "<!--", at: index) {
                guard let end = after("-->", from: index + 4) else { return false }
                // `--` inside a comment is not well-formed.
                var cursor = index + 4
                while cursor < end - 3 {
                    if bytes[cursor] == UInt8(ascii: "-") && bytes[cursor + 1] == UInt8(ascii: "-") { return false }
                    cursor += 1
                }
                index = end
                return true
            }
            if starts(with: "<!DOCTYPE ", at: index) {
                guard !sawDoctype, !sawRoot, open.isEmpty else { return false }
                sawDoctype = true
                var cursor = index
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ">") {
                    if bytes[cursor] == UInt8(ascii: "[") || bytes[cursor] == UInt8(ascii: "<") && cursor != index { return false }
                    cursor += 1
                }
                guard cursor < bytes.count else { return false }
                index = cursor + 1
                return true
            }
            if starts(with: "</", at: index) {
                let nameStart = index + 2
                var cursor = nameEnd(from: nameStart)
                guard let top = open.popLast(), same(nameStart..<cursor, top) else { return false }
                while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else { return false }
                index = cursor + 1
                return true
            }
            return scanStartTag()
        }

        mutating func scanStartTag() -> Bool {
            guard open.isEmpty ? !sawRoot : true else { return false }
            let nameStart = index + 1
            var cursor = nameEnd(from: nameStart)
            let name = nameStart..<cursor
            guard !name.isEmpty, isPermittedElement(name) else { return false }
            attributeNames.removeAll(keepingCapacity: true)
            while true {
                let spaced = cursor < bytes.count && Self.isSpace(bytes[cursor])
                while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count else { return false }
                if bytes[cursor] == UInt8(ascii: ">") {
                    open.append(name)
                    sawRoot = true
                    index = cursor + 1
                    return true
                }
                if bytes[cursor] == UInt8(ascii: "/") {
                    guard cursor + 1 < bytes.count, bytes[cursor + 1] == UInt8(ascii: ">") else { return false }
                    sawRoot = true
                    index = cursor + 2
                    return true
                }
                guard spaced else { return false }
                let attributeStart = cursor
                cursor = nameEnd(from: attributeStart)
                let attribute = attributeStart..<cursor
                guard !attribute.isEmpty, Self.isPermittedAttribute(bytes[attribute]), !attributeNames.contains(where: { same($0, attribute) }) else {
                    return false
                }
                attributeNames.append(attribute)
                while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { return false }
                cursor += 1
                while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { return false }
                let quote = bytes[cursor]
                cursor += 1
                let declaration = starts(with: "xmlns", at: attribute.lowerBound)
                // The closing quote, then every byte before it checked at once (no early exit, so
                // the check runs over whole vectors): long values (a path's points) are most of a drawing.
                guard let base = bytes.baseAddress, cursor < bytes.count,
                      let found = memchr(base + cursor, Int32(quote), bytes.count - cursor) else { return false }
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard Self.isPermittedValue(UnsafeBufferPointer(rebasing: bytes[cursor..<end]), declaration: declaration) else {
                    return false
                }
                index = end
                guard index < bytes.count else { return false }
                cursor = index + 1
            }
        }

        /// No `<`, no control character but white space, no DEL, no `&` (a reference in a value
        /// could spell a scheme: the parser decides), and no `:` outside an `xmlns…` declaration.
        static func isPermittedValue(_ value: UnsafeBufferPointer<UInt8>, declaration: Bool) -> Bool {
            // NUL is refused as a control character anyway, so it can stand for "no colon refused".
            let colon: UInt8 = declaration ? 0 : UInt8(ascii: ":")
            var refused: UInt8 = 0
            for byte in value {
                let control: UInt8 = (byte < 0x20 ? 1 : 0) & (byte != 0x09 ? 1 : 0) & (byte != 0x0A ? 1 : 0) & (byte != 0x0D ? 1 : 0)
                refused |= control | (byte == UInt8(ascii: "<") ? 1 : 0) | (byte == UInt8(ascii: "&") ? 1 : 0)
                    | (byte == 0x7F ? 1 : 0) | (byte == colon ? 1 : 0)
            }
            return refused == 0
        }

        /// The element's local name, lowercased, is not one ``SVGSafety`` refuses.
        mutating func isPermittedElement(_ name: Range<Int>) -> Bool {
            for known in permittedNames where same(known, name) { return true }
            guard !SVGSafety.refusedElements.contains(Self.localLowercased(bytes[name])) else { return false }
            if permittedNames.count < 32 { permittedNames.append(name) }
            return true
        }

        /// Not `on…`, not `href` (local names, any case).
        static func isPermittedAttribute(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
            let lower = { (offset: Int) in local[local.startIndex + offset] | 0x20 }
            if local.count >= 2, lower(0) == UInt8(ascii: "o"), lower(1) == UInt8(ascii: "n") { return false }
            return !(local.count == 4 && lower(0) == UInt8(ascii: "h") && lower(1) == UInt8(ascii: "r") && lower(2) == UInt8(ascii: "e")
                     && lower(3) == UInt8(ascii: "f"))
        }

        static func localLowercased(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
            return String(decoding: local.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
        }
    }
}
