/// Escaping for the markup formats reporters write. Names in reports come from pull requests and
/// users' models: every one of them goes through here before it reaches XML or Markdown.
package enum MarkupText {
    /// Bidirectional formatting characters (embeddings, overrides, isolates, marks): in a name
    /// they can make a report read differently from what it says ("Trojan Source"), so every
    /// human-facing format shows them as visible `\u{202E}` text instead.
    package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    package static func visible(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// `text` with bidirectional controls made visible; everything else unchanged.
    package static func inert(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBidiControl) else { return text }
        return text.mappingScalars { isBidiControl($0) ? visible($0) : nil }
    }

    /// Text for XML 1.0 element content and attribute values (JUnit, HTML): the five special
    /// characters as entities, and the characters XML 1.0 cannot carry at all (control characters
    /// other than tab and line breaks, unpaired surrogates cannot occur in Swift strings, U+FFFE and
    /// U+FFFF) replaced by U+FFFD, so the document always parses.
    package static func xml(_ text: String) -> String {
        text.mappingScalars { scalar in
            if let entity = entity(scalar) { return entity }
            switch scalar {
            case "\"": return "&quot;"
            case "'": return "&#39;"
            case "\t", "\n", "\r": return nil
            default:
                if isBidiControl(scalar) { return visible(scalar) }
                let value = scalar.value
                return value < 0x20 || value == 0xFFFE || value == 0xFFFF ? "\u{FFFD}" : nil
            }
        }
    }

    /// The entities of `&`, `<` and `>`, which XML and GitHub Markdown (inline HTML) both escape.
    static func entity(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        default: nil
        }
    }

    /// `text` as a complete Markdown code span, fence included. Inside a code span backslash
    /// escapes and entities are literal, so none are used: the fence is one backtick longer than
    /// the longest backtick run in the text, and a space pads each side when the text starts or
    /// ends with a backtick (or starts and ends with a space, which CommonMark would strip).
    /// Line breaks become spaces (as CommonMark renders them), control characters U+FFFD and
    /// bidirectional controls visible. In a table cell (`inTable`), `|` would end the cell even in
    /// a code span, so it is written `\|`, which GitHub unescapes before reading the span.
    package static func markdownCode(_ text: String, inTable: Bool = false) -> String {
        var body = ""
        for scalar in inert(text).unicodeScalars {
            switch scalar {
            case "\n", "\r": body += " "
            case "|" where inTable: body += "\\|"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    body += "\u{FFFD}"
                } else {
                    body.unicodeScalars.append(scalar)
                }
            }
        }
        var longest = 0, run = 0
        for character in body.unicodeScalars {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = body.hasPrefix("`") || body.hasSuffix("`") || (body.hasPrefix(" ") && body.hasSuffix(" ") && body.contains { $0 != " " })
        return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence
    }

    /// Text for a GitHub-flavoured Markdown table cell or paragraph: `&`, `<` and `>` as entities
    /// (GitHub renders inline HTML), Markdown punctuation and pipes backslash-escaped, line breaks
    /// as `<br>`, control characters replaced by U+FFFD.
    package static func markdown(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let entity = entity(scalar) {
                out += entity
                continue
            }
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "|", "#", "{", "}", "~", "!": out += "\\"; out.unicodeScalars.append(scalar)
            case "\r": break
            case "\n": out += "<br>"
            default:
                if isBidiControl(scalar) {
                    out += markdown(visible(scalar))
                } else if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
