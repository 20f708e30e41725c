import Foundation

/// Byte-level checks run on model XML before any XML parser sees it.
///
/// libxml2 (behind FoundationXML) honours DTDs, entity declarations and declared encodings.
/// chainplan never needs any of them, so documents that declare a DTD or entities, that are not
/// UTF-8, or that declare a non-UTF-8 encoding are refused here, which rules out external entity
/// loading (XXE) and entity expansion bombs whatever the parser's options are.
package enum XMLSafety {
    /// A refusal with the 1-based line it points at.
    package struct Problem: Equatable {
        package var line: Int?
        package var message: String
    }

    /// What a document may contain.
    package struct Policy {
        /// Allow a `<!DOCTYPE …>` without internal subset (plists carry Apple's public DTD).
        /// Entity declarations and internal subsets are refused regardless.
        package var allowsExternalDoctype = false

        package init(allowsExternalDoctype: Bool = false) {
            self.allowsExternalDoctype = allowsExternalDoctype
        }
    }

    /// Every problem found; empty when the document may be handed to the XML parser.
    package static func check(_ data: Data, policy: Policy = Policy()) -> [Problem] {
        if data.isEmpty { return [Problem(line: nil, message: "the file is empty")] }
        return data.withUnsafeBytes { raw -> [Problem] in
            let bytes = raw.bindMemory(to: UInt8.self)
            let scan = scanBytes(bytes, policy: policy)
            if let nul = scan.firstNUL {
                return [Problem(line: line(at: nul, in: bytes),
                                message: "the file contains a NUL byte (UTF-16 or binary data is not accepted)")]
            }
            if scan.hasNonASCII, let offset = firstInvalidUTF8(bytes) {
                return [Problem(line: line(at: offset, in: bytes), message: "the file is not valid UTF-8")]
            }
            var problems: [Problem] = []
            if let encoding = declaredEncoding(bytes) {
                let lower = encoding.lowercased()
                if !["utf-8", "utf8", "us-ascii", "ascii"].contains(lower) {
                    problems.append(Problem(
                        line: 1, message: "the document declares encoding '\(encoding)'; only UTF-8 is accepted"))
                }
            }
            if let offset = scan.refusedDoctype {
                let message = policy.allowsExternalDoctype
                    ? "the document's DTD has an internal subset ('<!DOCTYPE … ['), which is refused for safety"
                    : "the document declares a DTD ('<!DOCTYPE'), which is refused for safety"
                problems.append(Problem(line: line(at: offset, in: bytes), message: message))
            }
            if let offset = scan.entityDeclaration {
                problems.append(Problem(
                    line: line(at: offset, in: bytes),
                    message: "the document declares an entity ('<!ENTITY'), which is refused for safety"))
            }
            if let offset = firstDatalessProcessingInstruction(bytes) {
                problems.append(Problem(line: line(at: offset, in: bytes), message: datalessProcessingInstructionMessage))
            }
            return problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        }
    }

    /// What one pass over the bytes finds.
    struct Scan {
        var hasNonASCII = false
        var firstNUL: Int?
        /// The first `<!DOCTYPE` the policy refuses.
        var refusedDoctype: Int?
        /// The first `<!ENTITY`.
        var entityDeclaration: Int?
    }

    /// Non-ASCII bytes (then UTF-8 is validated separately), the first NUL byte, and
    /// `<!DOCTYPE`/`<!ENTITY` (case-insensitive) before it. Nothing after a NUL is looked at: the
    /// document is refused for it.
    static func scanBytes(_ bytes: UnsafeBufferPointer<UInt8>, policy: Policy) -> Scan {
        var scan = Scan()
        guard let base = bytes.baseAddress else { return scan }
        let count = bytes.count
        if let nul = memchr(base, 0, count) { scan.firstNUL = base.distance(to: nul.assumingMemoryBound(to: UInt8.self)) }
        let limit = scan.firstNUL ?? count
        // One OR over the bytes: a loop without exits, which the compiler vectorises.
        var high: UInt8 = 0
        for byte in UnsafeBufferPointer(rebasing: bytes[..<limit]) { high |= byte }
        scan.hasNonASCII = high & 0x80 != 0
        let doctype = Array("DOCTYPE".utf8)
        let entity = Array("ENTITY".utf8)
        var from = 0
        while let open = nextPair(UInt8(ascii: "<"), UInt8(ascii: "!"), in: bytes, from: from, before: limit) {
            from = open + 1
            if scan.refusedDoctype == nil, matches(doctype, in: bytes, at: open + 2),
               !policy.allowsExternalDoctype || doctypeHasInternalSubset(bytes, from: open + 2) {
                scan.refusedDoctype = open
            } else if scan.entityDeclaration == nil, matches(entity, in: bytes, at: open + 2) {
                scan.entityDeclaration = open
            }
        }
        return scan
    }

    /// The offset of the first `first` at or after `from` that `second` follows, the pair ending
    /// before `limit`, or nil. `second` is looked for with `memchr`: the pairs searched for (`<!`,
    /// `<?`) have a second byte that is rare in model files, where `<` is not.
    package static func nextPair(_ first: UInt8, _ second: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, before limit: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var next = max(from + 1, 1)
        while next < limit, let found = memchr(base + next, Int32(second), limit - next) {
            let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if bytes[position - 1] == first { return position - 1 }
            next = position + 1
        }
        return nil
    }

    /// The offset of the first byte sequence that is not valid UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var index = 0
        let count = bytes.count
        while index < count {
            let length: Int
            switch bytes[index] {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= count,
                  String(validating: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self) != nil
            else { return index }
            index += length
        }
        return count
    }

    /// 1-based line of byte `offset`.
    static func line(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
        return line
    }

    /// The `encoding` pseudo-attribute of a leading `<?xml …?>` declaration, if any.
    static func declaredEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let prefix = Array("<?xml".utf8)
        guard bytes.count >= start + prefix.count,
              Array(bytes[start..<(start + prefix.count)]) == prefix else { return nil }
        // The declaration is short; look at most 512 bytes ahead for its end.
        let limit = min(bytes.count, start + 512)
        var end = start
        while end + 1 < limit, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
        let declaration = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return String(value)
    }

    static func matches(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset + word.count <= bytes.count else { return false }
        for (position, expected) in word.enumerated() {
            var actual = bytes[offset + position]
            if actual >= 0x61 && actual <= 0x7A { actual -= 0x20 }
            if actual != expected { return false }
        }
        return true
    }

    /// True when the `<!DOCTYPE` starting at `offset` contains `[` before its closing `>`
    /// (quoted public and system identifiers are skipped).
    static func doctypeHasInternalSubset(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool {
        var quote: UInt8?
        var index = offset
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                return true
            } else if byte == UInt8(ascii: ">") {
                return false
            }
            index += 1
        }
        return false
    }
}
