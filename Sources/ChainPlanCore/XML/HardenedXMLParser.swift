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
}
