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
        let count = bytes.count
        var from = 0
        while let open = nextPair(UInt8(ascii: "<"), UInt8(ascii: "?"), in: bytes, from: from, before: count) {
            // The target: every byte up to white space, `?` or the next `<`.
            var end = open + 2
            while end < count, !endsTarget(bytes[end]) { end += 1 }
            if end > open + 2, end + 1 < count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                return open
            }
            // The next `<?` starts at `end` at the earliest.
            from = end
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
