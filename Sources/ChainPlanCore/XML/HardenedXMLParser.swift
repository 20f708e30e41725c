import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The one way chainplan sets up an `XMLParser`: external entities are never resolved or
/// loaded (whatever the document declares), namespaces are not processed, and a document the
/// parser cannot read safely never reaches it. Every reader's parser comes from here, so no
/// reader depends on a byte-level pre-check of its own to keep a document from reaching outside
/// itself or from crashing the process.
///
/// Refused before a parser is made: a processing instruction without data (`<?x?>`), which
/// FoundationXML on Linux reads through a NULL pointer as soon as the parser has a delegate
/// (`XMLSafety.firstDatalessProcessingInstruction`).
package enum HardenedXMLParser {
    /// A document no parser is made for.
    package struct Refusal: Error, Equatable {
        /// The byte offset of what is refused.
        package var offset: Int
        package var message: String
    }

    package static func make(_ data: Data) throws(Refusal) -> XMLParser {
        if let offset = XMLSafety.firstDatalessProcessingInstruction(in: data) {
            throw Refusal(offset: offset, message: XMLSafety.datalessProcessingInstructionMessage)
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        return parser
    }

    /// Parses `data` with `delegate`, which can read the parser's position while it runs (its
    /// `parser` is set for the parse and cleared after). Returns what `parse()` returned, or
    /// false for a document ``make(_:)`` refuses (the model readers report it located, from
    /// `XMLSafety.check`, before they parse).
    package static func parse(_ data: Data, with delegate: some PositionReadingXMLDelegate) -> Bool {
        guard let parser = try? make(data) else { return false }
        parser.delegate = delegate
        delegate.parser = parser
        defer {
            delegate.parser = nil
            parser.delegate = nil
        }
        return parser.parse()
    }
}

/// A parser delegate that reads line and column from the parser it is attached to.
package protocol PositionReadingXMLDelegate: AnyObject, XMLParserDelegate {
    var parser: XMLParser? { get set }
}
