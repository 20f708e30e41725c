/// Makes untrusted text inert on a terminal: control characters, bidirectional overrides and
/// other invisible formatting characters are shown as `\u{…}` escapes (newline as `\n`).
package enum TerminalText {
    package static func safe(_ text: String) -> String {
        var needsWork = false
        for scalar in text.unicodeScalars where isUnsafe(scalar) {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                switch scalar {
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Controls, the one bidirectional set every escaper shares (`MarkupText.isBidiControl`), and
    /// other invisible formatting characters.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if MarkupText.isBidiControl(scalar) { return true }
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }
}
