/// A lexical pre-scan of JSON/YAML text that refuses what would make the YAML composer
/// recurse deeply or expand without bound, before the text reaches it.
///
/// - Flow nesting (`[`, `{`) deeper than `maxDepth` is refused at the bracket that exceeds it.
/// - Block nesting is bounded by indentation: a line whose structure starts beyond
///   `maxIndentColumn` (leading spaces plus `- ` / `? ` indicators) is refused.
/// - Aliases (`*name` at the start of a token) are refused: Yams expands them while composing,
///   so an alias bomb would otherwise grow exponentially. Anchors alone are harmless.
///
/// - A token (a scalar: a version name, a path) longer than `maxTokenLength` characters is
///   refused where it passes the limit: names and paths are short, and the YAML scanner's time
///   and memory grow with a token's length.
///
/// It tracks quoted scalars and comments so that brackets and asterisks inside them are ignored.
/// Block scalars (`|`, `>`) are not tracked; a chain spec has no use for them.
struct StructureGuard {
    struct Violation: Error, Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    var maxDepth = 64
    var maxIndentColumn = 256
    var maxTokenLength = 65_536

    func check(_ text: String) -> Violation? {
        var line = 1
        var column = 0
        var depth = 0
        var atLineStart = true
        var lineIndent = 0
        var previous: Unicode.Scalar = "\n"
        var state = State.plain

        enum State { case plain, doubleQuoted, doubleQuotedEscape, singleQuoted, comment }

        var tokenLength = 0
        for scalar in text.unicodeScalars {
            column += 1
            defer { previous = scalar }
            // Quoted scalars run to their closing quote, across lines and brackets.
            let quoted = state == .doubleQuoted || state == .doubleQuotedEscape || state == .singleQuoted
            if !quoted && (scalar == "\n" || scalar == "[" || scalar == "]" || scalar == "{" || scalar == "}" || scalar == "," || scalar == ":") {
                tokenLength = 0
            } else {
                tokenLength += 1
            }
            if tokenLength > maxTokenLength {
                return Violation(message: "a token is longer than \(maxTokenLength) characters; version names and paths are short",
                                 line: line, column: column)
            }
            if scalar == "\n" {
                line += 1
                column = 0
                atLineStart = true
                lineIndent = 0
                if state == .comment { state = .plain }
                continue
            }
            switch state {
            case .comment:
                continue
            case .doubleQuotedEscape:
                state = .doubleQuoted
                continue
            case .doubleQuoted:
                if scalar == "\\" { state = .doubleQuotedEscape } else if scalar == "\"" { state = .plain }
                continue
            case .singleQuoted:
                if scalar == "'" { state = .plain }
                continue
            case .plain:
                break
            }
            if atLineStart {
                if scalar == " " || scalar == "\t" {
                    lineIndent += 1
                    if lineIndent > maxIndentColumn { return tooDeep(line, column) }
                    continue
                }
                if (scalar == "-" || scalar == "?"), depth == 0 {
                    // A block indicator; it counts as indentation when followed by a space.
                    lineIndent += 1
                    if lineIndent > maxIndentColumn { return tooDeep(line, column) }
                    continue
                }
                atLineStart = false
            }
            let tokenStart = previous == " " || previous == "\t" || previous == "\n" || previous == "["
                || previous == "{" || previous == "," || previous == ":" || previous == "-"
            switch scalar {
            case "#" where previous == " " || previous == "\t" || previous == "\n" || column == 1:
                state = .comment
            case "\"" where tokenStart:
                state = .doubleQuoted
            case "'" where tokenStart:
                state = .singleQuoted
            case "[", "{":
                depth += 1
                if depth > maxDepth {
                    return Violation(
                        message: "nesting is deeper than \(maxDepth) levels", line: line, column: column)
                }
            case "]", "}":
                depth = max(0, depth - 1)
            case "*" where tokenStart:
                return Violation(
                    message: "YAML aliases are not supported in chain specs (write the value out, or quote it)",
                    line: line, column: column)
            default:
                break
            }
        }
        return nil
    }

    private func tooDeep(_ line: Int, _ column: Int) -> Violation {
        Violation(message: "nesting is deeper than \(maxIndentColumn) columns of indentation", line: line, column: column)
    }
}
