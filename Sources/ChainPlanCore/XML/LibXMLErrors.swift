/// Short descriptions of libxml2's `xmlParserErrors` codes.
///
/// FoundationXML on Linux reports parse errors as bare codes (no message), so the common ones
/// are spelt out here; others are shown as `libxml2 error N`.
package enum LibXMLErrors {
    package static func describe(_ code: Int) -> String {
        guard let text = descriptions[code] else { return "libxml2 error \(code)" }
        return "\(text) (libxml2 error \(code))"
    }

    static let descriptions: [Int: String] = [
        // XML_ERR_INTERNAL_ERROR: raised when a built-in limit is hit, such as a name or value
        // longer than libxml2's 10 MB cap.
        1: "a parser limit was exceeded: a name or value is too long (over 10 MB)",
        3: "no document start",
        4: "the document is empty or does not start with a tag",
        5: "extra content or premature end of the document",
        6: "invalid hexadecimal character reference",
        7: "invalid decimal character reference",
        8: "invalid character reference",
        9: "invalid character",
        22: "entity reference without a name",
        23: "entity reference without ';'",
        26: "undeclared entity",
        31: "unknown encoding",
        32: "unsupported encoding",
        33: "attribute value without opening quote",
        34: "attribute value not closed",
        38: "'<' inside an attribute value",
        39: "attribute not started",
        40: "attribute value not finished or too long",
        41: "attribute without value",
        42: "attribute given twice",
        45: "comment not finished",
        46: "processing instruction not started",
        47: "processing instruction not finished",
        57: "XML declaration not finished",
        61: "DOCTYPE not finished",
        62: "misplaced ']]>'",
        63: "CDATA section not finished",
        64: "reserved name 'xml'",
        65: "space required",
        68: "name expected",
        73: "'>' expected",
        76: "closing tag does not match the opening tag",
        77: "element not closed at the end of the document",
        85: "elements are not well balanced",
        86: "extra content at the end of the document",
        89: "invalid URI",
        201: "namespace error",
    ]
}
