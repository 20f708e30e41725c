import ChainPlanCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The objects of a Core Data XML store document (`<database><object …>`), as written
/// by Xcode's mapping editor in `xcmapping.xml`.
struct MappingXMLDocument {
    struct Object {
        var type: String
        var id: String
        var line: Int
        /// `<attribute name=…>` text by name (the first of a repeated name wins).
        var attributes: [String: Field] = [:]
        /// `<relationship name=… idrefs=…>` references by name.
        var relationships: [String: [String]] = [:]
    }

    struct Field {
        var type: String?
        var text: String
        var line: Int
    }

    /// Where and why the document was refused.
    struct Failure: Error {
        var message: String
        var line: Int?
    }

    var objects: [Object]

    /// Parses `data` safely: the DOCTYPE Xcode writes (an external `SYSTEM` DTD reference,
    /// never loaded) is blanked out before parsing; a DOCTYPE with an internal subset, a
    /// second DOCTYPE or any `<!ENTITY` declaration is refused; the parser never resolves
    /// external entities.
    static func parse(_ data: Data) -> Result<MappingXMLDocument, Failure> {
        switch neutraliseDoctype(data) {
        case .success(let prepared): return parse(prepared: prepared)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Parses a document whose DOCTYPE was already checked. It refuses entity declarations by
    /// itself too, and its parser (`HardenedXMLParser`) never resolves an external entity,
    /// whatever the caller checked before.
    static func parse(prepared: Data) -> Result<MappingXMLDocument, Failure> {
        // FoundationXML on Linux does not report entity declarations to the delegate: refused here.
        if let failure = entityDeclaration(in: [UInt8](prepared)) { return .failure(failure) }
        let parser: XMLParser
        do {
            parser = try HardenedXMLParser.make(prepared)
        } catch {
            return .failure(Failure(message: "xcmapping.xml: \(error.message)", line: line(at: error.offset, in: [UInt8](prepared))))
        }
        let delegate = Delegate()
        parser.delegate = delegate
        let parsed = parser.parse()
        if let failure = delegate.failure { return .failure(failure) }
        guard parsed, delegate.errorLine == nil else {
            let reason = (parser.parserError ?? delegate.error).map { Self.describe($0) } ?? "malformed"
            return .failure(Failure(message: "xcmapping.xml is not well-formed XML (\(reason))",
                                    line: clamp(delegate.errorLine ?? max(1, parser.lineNumber), in: prepared)))
        }
        guard delegate.sawRoot else {
            return .failure(Failure(message: "xcmapping.xml has no root element", line: nil))
        }
        if let open = delegate.openElement {
            // Some XMLParser implementations accept a document that simply stops.
            return .failure(Failure(message: "xcmapping.xml is truncated: element '\(open)' is never closed",
                                    line: clamp(Int.max, in: prepared)))
        }
        return .success(MappingXMLDocument(objects: delegate.objects))
    }

    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let text = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty,
           !text.hasPrefix("The operation could not be completed") {
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let known: [Int: String] = [
            4: "the document is empty", 5: "the document ends prematurely", 9: "invalid character",
            23: "an entity reference is not terminated", 26: "an entity is not declared",
            38: "an attribute value is not quoted", 39: "an attribute is not closed",
            41: "an attribute has no value", 64: "the XML declaration is malformed",
            73: "a '>' is missing", 76: "a closing tag does not match its opening tag", 85: "extra content after the root element",
        ]
        return known[nsError.code].map { "\($0), libxml2 error \(nsError.code)" } ?? "libxml2 error \(nsError.code)"
    }

    /// Parsers report errors at end of input one line past the last; point at the last line.
    static func clamp(_ line: Int, in data: Data) -> Int {
        var lines = data.reduce(into: 1) { count, byte in if byte == 0x0A { count += 1 } }
        if data.last == 0x0A { lines -= 1 }
        return max(1, min(line, lines))
    }

    // MARK: - DOCTYPE handling

    /// 1-based line of byte `offset`.
    static func line(at offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0A { line += 1 }
        return line
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// Offset of the first ASCII-case-insensitive occurrence of `needle` at or after `start`.
    static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = needle.utf8.map(lowered)
        guard !pattern.isEmpty, bytes.count >= pattern.count, start >= 0 else { return nil }
        // A needle that opens with two bytes no letter case changes (`<!`): each occurrence of
        // that pair is found with `memchr` (a 1.6 MB mapping model is mostly one base64 line).
        if pattern.count >= 2, !isLetter(pattern[0]), !isLetter(pattern[1]) {
            return bytes.withUnsafeBufferPointer { buffer -> Int? in
                var from = start
                while let found = XMLSafety.nextPair(pattern[0], pattern[1], in: buffer, from: from, before: buffer.count) {
                    guard found + pattern.count <= buffer.count else { return nil }
                    if (2..<pattern.count).allSatisfy({ lowered(buffer[found + $0]) == pattern[$0] }) { return found }
                    from = found + 1
                }
                return nil
            }
        }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0] {
                var offset = 1
                while offset < pattern.count, lowered(bytes[index + offset]) == pattern[offset] { offset += 1 }
                if offset == pattern.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Removes a prolog `<!DOCTYPE name SYSTEM "…">` (no internal subset), keeping line
    /// breaks so that parser line numbers still match the file.
    /// The refusal of the document's first `<!ENTITY` declaration, if it has one.
    static func entityDeclaration(in bytes: [UInt8]) -> Failure? {
        find("<!ENTITY", in: bytes, from: 0).map {
            Failure(message: "xcmapping.xml declares an entity, which is refused for safety", line: line(at: $0, in: bytes))
        }
    }

    static func neutraliseDoctype(_ data: Data) -> Result<Data, Failure> {
        var bytes = [UInt8](data)
        if let failure = entityDeclaration(in: bytes) { return .failure(failure) }
        guard let start = find("<!DOCTYPE", in: bytes, from: 0) else { return .success(data) }
        // The DOCTYPE must come before the root element.
        if let root = firstElementStart(in: bytes), root < start {
            return .failure(Failure(message: "xcmapping.xml has a DOCTYPE after the root element, which is refused",
                                    line: line(at: start, in: bytes)))
        }
        var index = start + 9
        var quote: UInt8?
        var end: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B { // [
                return .failure(Failure(message: "xcmapping.xml declares a DTD internal subset, which is refused for safety",
                                        line: line(at: index, in: bytes)))
            } else if byte == 0x3E { // >
                end = index
                break
            }
            index += 1
        }
        guard let end else {
            return .failure(Failure(message: "xcmapping.xml has an unterminated DOCTYPE", line: line(at: start, in: bytes)))
        }
        for position in start...end where bytes[position] != 0x0A && bytes[position] != 0x0D {
            bytes[position] = 0x20
        }
        if let second = find("<!DOCTYPE", in: bytes, from: end) {
            return .failure(Failure(message: "xcmapping.xml declares a second DOCTYPE, which is refused",
                                    line: line(at: second, in: bytes)))
        }
        return .success(Data(bytes))
    }

    /// Offset of the first `<` that opens an element (not `<?` or `<!`).
    private static func firstElementStart(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x3C, bytes[index + 1] != 0x3F, bytes[index + 1] != 0x21 { return index }
            index += 1
        }
        return nil
    }

    // MARK: - SAX delegate

    private final class Delegate: NSObject, XMLParserDelegate {
        var objects: [Object] = []
        var failure: Failure?
        var sawRoot = false
        /// Line and error of the first parse error the parser reported.
        var errorLine: Int?
        var error: Error?
        /// The innermost element still open when parsing stopped.
        var openElement: String? { stack.last }
        private var stack: [String] = []
        private var depth = 0
        private var current: Object?
        private var field: (name: String, type: String?, line: Int)?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            stack.append(elementName)
            let line = max(1, parser.lineNumber)
            if depth == 1 {
                sawRoot = true
                if elementName != "database" {
                    fail("the root element of xcmapping.xml is '\(elementName)', not 'database'", line: line, parser)
                }
                return
            }
            if depth == 2, elementName == "object" {
                current = Object(type: attributes["type"] ?? "", id: attributes["id"] ?? "", line: line)
                return
            }
            guard depth == 3, current != nil else { return }
            switch elementName {
            case "attribute":
                field = (attributes["name"] ?? "", attributes["type"], line)
                text = ""
            case "relationship":
                let name = attributes["name"] ?? ""
                let references = (attributes["idrefs"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map(String.init)
                if current?.relationships[name] == nil { current?.relationships[name] = references }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if field != nil { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if field != nil, let string = String(data: CDATABlock, encoding: .utf8) { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            defer {
                depth -= 1
                _ = stack.popLast()
            }
            if depth == 3, let open = field, elementName == "attribute" {
                if current?.attributes[open.name] == nil {
                    current?.attributes[open.name] = Field(type: open.type, text: text, line: open.line)
                }
                field = nil
                text = ""
            } else if depth == 2, elementName == "object", let object = current {
                objects.append(object)
                current = nil
            }
        }

        func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
            fail("xcmapping.xml declares a notation, which is refused", line: max(1, parser.lineNumber), parser)
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            fail("xcmapping.xml declares an entity, which is refused for safety", line: max(1, parser.lineNumber), parser)
        }

        func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
            fail("xcmapping.xml declares an entity, which is refused for safety", line: max(1, parser.lineNumber), parser)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if errorLine == nil {
                errorLine = max(1, parser.lineNumber)
                error = parseError
            }
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            nil
        }

        private func fail(_ message: String, line: Int, _ parser: XMLParser) {
            if failure == nil { failure = Failure(message: message, line: line) }
            parser.abortParsing()
        }
    }
}
