import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ChainPlanCore

/// Reads `.xccurrentversion`, an XML property list whose `_XCCurrentVersionName` key names the
/// current version folder (`Model 3.xcdatamodel`, with the extension).
///
/// Parsed with the SAX parser and an explicit stack rather than `PropertyListSerialization`,
/// whose recursive descent a deeply nested hostile plist could exhaust. Apple's public
/// `<!DOCTYPE plist …>` is allowed; internal subsets and entity declarations are refused.
package enum CurrentVersionFile {
    package enum Entry: Equatable {
        /// The key's string value and its line.
        case name(String, line: Int?)
        /// A dictionary without the key (or with an empty string).
        case absent
        /// Not a readable property list, or the key's value is not a string.
        case invalid(String, line: Int?)
    }

    static let key = "_XCCurrentVersionName"

    package static func parse(_ data: Data) -> Entry {
        if data.starts(with: Array("bplist".utf8)) {
            return .invalid("is a binary property list; only the XML form Xcode writes is read", line: nil)
        }
        if let problem = XMLSafety.check(data, policy: XMLSafety.Policy(allowsExternalDoctype: true)).first {
            return .invalid(problem.message, line: problem.line)
        }
        let reader = PlistReader()
        let succeeded = HardenedXMLParser.parse(data, with: reader)
        if let problem = reader.problem { return .invalid(problem.0, line: problem.1) }
        if !succeeded || reader.sawError { return .invalid("is not well-formed XML", line: reader.errorLine) }
        guard reader.sawDict else { return .invalid("is not a property list dictionary", line: nil) }
        guard let value = reader.value else { return .absent }
        return value.isEmpty ? .absent : .name(value, line: reader.valueLine)
    }

    /// Collects the value of the top-level `_XCCurrentVersionName` key.
    private final class PlistReader: NSObject, PositionReadingXMLDelegate {
        weak var parser: XMLParser?
        var depth = 0
        var sawDict = false
        var sawError = false
        var errorLine: Int?
        var problem: (String, Int?)?
        var value: String?
        var valueLine: Int?

        private var text = ""
        private var collecting = false
        /// The next top-level value belongs to our key.
        private var expectingValue = false
        private var readingValue = false

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String]) {
            depth += 1
            if depth > 256 {
                fail("is nested too deeply")
                return
            }
            switch depth {
            case 1:
                if elementName != "plist" { fail("has root element <\(elementName)>, expected <plist>") }
            case 2:
                if elementName == "dict" { sawDict = true } else { fail("does not hold a dictionary") }
            case 3:
                if elementName == "key" {
                    collecting = true
                    text = ""
                    expectingValue = false
                } else if expectingValue {
                    expectingValue = false
                    if elementName == "string" {
                        readingValue = true
                        collecting = true
                        text = ""
                        valueLine = parser.lineNumber
                    } else {
                        fail("gives \(CurrentVersionFile.key) a <\(elementName)> value, not a string")
                    }
                }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            if depth == 3 && collecting {
                collecting = false
                if readingValue {
                    readingValue = false
                    if value == nil { value = text }
                } else {
                    expectingValue = text == CurrentVersionFile.key
                }
            }
            depth -= 1
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard collecting, text.utf8.count < 1 << 16 else { return }
            text += string
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if !sawError {
                sawError = true
                errorLine = parser.lineNumber
            }
        }

        private func fail(_ message: String) {
            if problem == nil { problem = (message, parser?.lineNumber) }
            parser?.abortParsing()
        }
    }
}
