/// Escaping for the markup formats reporters write. Names in reports come from pull requests and
/// users' models: every one of them goes through here before it reaches XML or Markdown.
public enum MarkupText {
    /// Text for XML 1.0 element content and attribute values (JUnit, HTML): the five special
    /// characters as entities, and the characters XML 1.0 cannot carry at all (control characters
    /// other than tab and line breaks, unpaired surrogates cannot occur in Swift strings, U+FFFE and
    /// U+FFFF) replaced by U+FFFD, so the document always parses.
    public static func xml(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Text for a GitHub-flavoured Markdown table cell or paragraph: `&`, `<` and `>` as entities
    /// (GitHub renders inline HTML), Markdown punctuation and pipes backslash-escaped, line breaks
    /// as `<br>`, control characters replaced by U+FFFD.
    public static func markdown(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\", "`", "*", "_", "[", "]", "|", "#", "{", "}", "~", "!": out += "\\"; out.unicodeScalars.append(scalar)
            case "\r": break
            case "\n": out += "<br>"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
