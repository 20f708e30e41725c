import Foundation

extension XMLSafety {
    /// The message for a document holding a processing instruction without data.
    package static let datalessProcessingInstructionMessage =
        "the document has a processing instruction without data ('<?name?>'), which the XML parser cannot read"

    /// The offset of the first processing instruction with a target and no data (`<?x?>`), or nil.
    ///
    /// For one, libxml2 hands FoundationXML's callback no data pointer, and FoundationXML on
    /// Linux reads it as a C string: the process dies (a NULL dereference) whenever the parser
    /// has a delegate. Found by `make fuzz` (mapping target); refused before any parser sees it.
    /// `<?x ?>` (data present, empty) parses normally and is not matched. Scanned on raw bytes,
    /// so the pattern is refused inside comments and CDATA too, where no Core Data file has it.
    package static func firstDatalessProcessingInstruction(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        // `?` is rare in model files and `<` is not: find each `?` with `memchr` and look at the
        // byte before it. `from` is where the next `<?` may start at the earliest, plus one.
        var from = 1
        while from < count, let found = memchr(base + from, Int32(UInt8(ascii: "?")), count - from) {
            let question = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard bytes[question - 1] == UInt8(ascii: "<") else {
                from = question + 1
                continue
            }
            // The target: every byte up to white space, `?` or the next `<`.
            var end = question + 1
            while end < count, !endsTarget(bytes[end]) { end += 1 }
            if end > question + 1, end + 1 < count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                return question - 1
            }
            // The next `<?` starts at `end` at the earliest (its `?` one after).
            from = end + 1
        }
        return nil
    }

    /// `firstDatalessProcessingInstruction` over `Data`.
    package static func firstDatalessProcessingInstruction(in data: Data) -> Int? {
        data.withUnsafeBytes { firstDatalessProcessingInstruction($0.bindMemory(to: UInt8.self)) }
    }

    private static func endsTarget(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "<")
    }
}
