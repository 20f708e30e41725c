import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ChainPlanCore

/// Checks that an SVG document is well-formed XML and carries no active content.
///
/// Refused: a `script`, `foreignObject`, `iframe`, `object`, `embed`, `handler` or
/// animation element (`animate`, `set`, `animateMotion`, `animateTransform`,
/// `animateColor`, which can rewrite links), any attribute named `on…`, any `href` or
/// `xlink:href` (chainplan never asks Graphviz for links), and any attribute value that
/// contains `javascript:` (spaces and case ignored). Names in text content are harmless
/// (they are escaped) and are not inspected. The document's DOCTYPE is not loaded.
package enum SVGSafety {
    static let refusedElements: Set<String> = [
        "script", "foreignobject", "iframe", "object", "embed", "handler",
        "animate", "set", "animatemotion", "animatetransform", "animatecolor",
    ]

    /// Throws ``RenderError/activeContent(_:)`` if `svg` is active, ``RenderError/malformedSVG(_:)``
    /// if it is not well-formed XML.
    package static func check(_ svg: Data) throws {
        // Processing instructions are active content; one without data (`<?x?>`) is refused
        // before any parser is made, which could not read it (`HardenedXMLParser`).
        guard let parser = try? HardenedXMLParser.make(svg) else {
            throw RenderError.activeContent("processing instruction without data")
        }
        let delegate = Inspector()
        parser.delegate = delegate
        let parsed = parser.parse()
        if let finding = delegate.finding {
            throw RenderError.activeContent(finding)
        }
        // FoundationXML's parse() returns true after some fatal errors (e.g. an unclosed
        // element): a recorded parser error counts as failure too. Broken is not active: it is
        // reported as what it is.
        if !parsed || parser.parserError != nil || delegate.sawError {
            let reason = parser.parserError.map { "\($0)" } ?? "unknown error"
            throw RenderError.malformedSVG(reason)
        }
    }

    private final class Inspector: NSObject, XMLParserDelegate {
        var finding: String?
        var sawError = false

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            sawError = true
        }

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let local = Self.localName(elementName).lowercased()
            if SVGSafety.refusedElements.contains(local) {
                report("element <\(elementName)>", parser)
                return
            }
            for name in attributes.keys.sorted() {
                let value = attributes[name] ?? ""
                let localAttribute = Self.localName(name).lowercased()
                if localAttribute.hasPrefix("on") {
                    report("attribute \(name) on <\(elementName)>", parser)
                    return
                }
                if localAttribute == "href" {
                    report("link attribute \(name) on <\(elementName)>", parser)
                    return
                }
                // A `javascript:` URL needs a colon, and dropping white space cannot make one.
                guard value.utf8.contains(UInt8(ascii: ":")) else { continue }
                let squeezed = String(value.lowercased().unicodeScalars.filter {
                    !Self.ignorable.contains($0) && $0.value >= 0x20
                })
                if squeezed.contains("javascript:") {
                    report("javascript: in attribute \(name) on <\(elementName)>", parser)
                    return
                }
            }
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            report("processing instruction <?\(target)?>", parser)
        }

        private func report(_ what: String, _ parser: XMLParser) {
            if finding == nil { finding = what }
            parser.abortParsing()
        }

        /// Characters a browser skips inside a URL scheme, so `java\tscript:` still runs.
        private static let ignorable = CharacterSet.whitespacesAndNewlines

        private static func localName(_ name: String) -> String {
            if let colon = name.lastIndex(of: ":") {
                return String(name[name.index(after: colon)...])
            }
            return name
        }
    }
}

/// Makes cairo's PDF output reproducible.
enum PDFNormalizer {
    /// Replaces the 14 digits after `/CreationDate (D:` with `19700101000000`, in place.
    static func fixingCreationDate(_ pdf: Data) -> Data {
        let marker = Array("/CreationDate (D:".utf8)
        let fixed = Array("19700101000000".utf8)
        var bytes = [UInt8](pdf)
        guard bytes.count >= marker.count + fixed.count else { return pdf }
        var start = 0
        while start + marker.count + fixed.count <= bytes.count {
            if bytes[start] == marker[0] && Array(bytes[start..<start + marker.count]) == marker {
                let digits = start + marker.count
                let range = digits..<digits + fixed.count
                if bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    bytes.replaceSubrange(range, with: fixed)
                }
                start = digits
            } else {
                start += 1
            }
        }
        return Data(bytes)
    }
}
