/// Names quoted so that any name (even with quotes, newlines or controls) stays on one line and
/// reads back exactly: the lock's names and the staged plan's Swift string literals.
package enum QuotedText {
    /// JSON-style quoting; nil is `-`. `bidiVisible`: bidirectional controls are escaped too
    /// (`\u{202E}`), for text people read.
    package static func quote(_ value: String?, bidiVisible: Bool = false) -> String {
        guard let value else { return "-" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (bidiVisible && MarkupText.isBidiControl(scalar)) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: bidiVisible) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
