import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The one way chainplan sets up an `XMLParser`: external entities are never resolved or
/// loaded (whatever the document declares), namespaces are not processed. Every reader's
/// parser comes from here, so no reader depends on a byte-level pre-check alone to keep a
/// document from reaching outside itself.
package enum HardenedXMLParser {
    package static func make(_ data: Data) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        return parser
    }

    /// Parses `data` with `delegate`, which can read the parser's position while it runs (its
    /// `parser` is set for the parse and cleared after). Returns what `parse()` returned.
    package static func parse(_ data: Data, with delegate: some PositionReadingXMLDelegate) -> Bool {
        let parser = make(data)
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
