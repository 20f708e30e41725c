/// Names quoted so that any name (even with quotes, newlines or controls) stays on one line and
/// reads back exactly: the lock's names and the staged plan's Swift string literals.
package enum QuotedText {
    /// JSON-style quoting; nil is `-`. `bidiVisible`: bidirectional controls are escaped too
    /// (`\u{202E}`), for text people read.
    package static func quote(_ value: String?, bidiVisible: Bool = false) -> String {
        guard let value else { return "-" }
        let escaped = value.mappingScalars { scalar in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default:
                guard scalar.value < 0x20 || scalar.value == 0x7F || (bidiVisible && MarkupText.isBidiControl(scalar)) else { return nil }
                return "\\u{" + String(scalar.value, radix: 16, uppercase: bidiVisible) + "}"
            }
        }
        return "\"" + escaped + "\""
    }
}
