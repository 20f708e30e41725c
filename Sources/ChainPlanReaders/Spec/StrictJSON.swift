import Yams

/// Strict JSON (RFC 8259) for `.json` and sniffed-JSON inputs, checked before the text reaches
/// the YAML composer.
///
/// libyaml reads JSON as YAML, so on its own it accepts what JSON forbids (`# comments`,
/// `'single quotes'`, trailing commas, bare words, `!!tags`) and refuses what JSON allows
/// (surrogate-pair escapes such as `\ud83d\ude80`, which Python's `json.dump` writes for every
/// emoji; raw characters YAML counts as non-printable). So chainplan checks the grammar here and
/// reports the first violation at its token, then lets Yams compose the text as before (one
/// composition path, the same nodes and marks for JSON and YAML).
///
/// Strings libyaml would refuse are handed to it with the offending characters replaced by as
/// many `x` characters (so every later line and column, including on the same line, is
/// unchanged), and their decoded values are put back into the composed nodes by position.
enum StrictJSON {
    struct Failure: Error, Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    /// Position of a token, as libyaml counts it: 1-based line and column in Unicode scalars;
    /// `\r\n` and a lone `\r` are one line break.
    struct Position: Hashable {
        var line: Int
        var column: Int
    }

    /// The text to give the YAML composer and the string values to put back.
    struct Prepared {
        var text: String
        /// Decoded values of the strings whose text was replaced, by the position of their opening quote.
        var strings: [Position: String]
    }

    /// The first violation, or the text to compose (unchanged when no string needs replacing).
    static func prepare(_ text: String, maxDepth: Int = 512) -> Result<Prepared, Failure> {
        var parser = Parser(bytes: Array(text.utf8), maxDepth: maxDepth)
        do {
            try parser.document()
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(message: "invalid JSON", line: 1, column: 1))
        }
        guard !parser.replacements.isEmpty else { return .success(Prepared(text: text, strings: [:])) }
        var output: [UInt8] = []
        output.reserveCapacity(parser.bytes.count)
        var next = 0
        for (range, scalarCount, filler) in parser.replacements {
            output.append(contentsOf: parser.bytes[next..<range.lowerBound])
            output.append(contentsOf: repeatElement(filler, count: scalarCount))
            next = range.upperBound
        }
        output.append(contentsOf: parser.bytes[next...])
        return .success(Prepared(text: String(decoding: output, as: UTF8.self), strings: parser.decodedStrings))
    }

    /// Puts the decoded values of replaced strings back into the composed tree.
    static func restore(_ strings: [Position: String], in node: Node) -> Node {
        guard !strings.isEmpty else { return node }
        switch node {
        case .scalar(var scalar):
            guard let mark = scalar.mark, let value = strings[Position(line: mark.line, column: mark.column)] else { return node }
            let tag = scalar.tag
            scalar.string = value
            scalar.tag = tag
            return .scalar(scalar)
        case .sequence(var sequence):
            for index in sequence.indices { sequence[index] = restore(strings, in: sequence[index]) }
            return .sequence(sequence)
        case .mapping(var mapping):
            for index in mapping.indices {
                let (key, value) = mapping[index]
                mapping[index] = (key: restore(strings, in: key), value: restore(strings, in: value))
            }
            return .mapping(mapping)
        }
    }

    /// Whether libyaml accepts `scalar` as a character of a quoted scalar (its `IS_PRINTABLE`).
    static func isYAMLPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0x10000...0x10FFFF: return true
        case 0xE000...0xFFFD: return scalar.value != 0xFEFF
        default: return false
        }
    }

    /// Works on the UTF-8 bytes (already validated), so memory stays at one byte per byte.
    /// Line breaks for libyaml besides `\n` and `\r` (NEL, LS, PS): raw in a JSON string they are
    /// characters, but libyaml would count a new line and fold them.
    static func isYAMLBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private struct Parser {
        let bytes: [UInt8]
        let maxDepth: Int
        var index = 0
        var line = 1
        var column = 1
        var depth = 0
        /// Byte ranges to replace by as many filler bytes (`x` in strings, a space for a tab
        /// between tokens) as they have Unicode scalars, in order.
        var replacements: [(Range<Int>, Int, UInt8)] = []
        var decodedStrings: [Position: String] = [:]
        var lastComma = Position(line: 1, column: 1)

        init(bytes: [UInt8], maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        var position: Position { Position(line: line, column: column) }

        /// The Unicode scalar at `index`, or nil at the end.
        var current: Unicode.Scalar? { index < bytes.count ? decode(at: index).scalar : nil }

        func decode(at offset: Int) -> (scalar: Unicode.Scalar, length: Int) {
            let lead = bytes[offset]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard length > 1, offset + length <= bytes.count else { return (Unicode.Scalar(lead), 1) }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for byte in bytes[(offset + 1)..<(offset + length)] { value = value << 6 | (UInt32(byte) & 0x3F) }
            return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
        }

        mutating func advance() {
            let (scalar, length) = decode(at: index)
            index += length
            if scalar == "\n" || (scalar == "\r" && current != "\n") {
                line += 1
                column = 1
            } else if scalar != "\r" {
                column += 1
            }
        }

        func fail(_ message: String, at position: Position? = nil) -> Failure {
            let at = position ?? self.position
            return Failure(message: "invalid JSON: \(message)", line: at.line, column: at.column)
        }

        /// Skips JSON whitespace; tabs become spaces for libyaml, which refuses a tab where a
        /// block token could start.
        mutating func skipWhitespace() {
            while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if scalar == "\t" { replacements.append((index..<(index + 1), 1, UInt8(ascii: " "))) }
                advance()
            }
        }

        mutating func document() throws {
            skipWhitespace()
            try value()
            skipWhitespace()
            if let scalar = current {
                throw fail("unexpected \(describe(scalar)) after the end of the document")
            }
        }

        mutating func value() throws {
            guard let scalar = current else { throw fail("unexpected end of input; a value is missing") }
            switch scalar {
            case "{": try object()
            case "[": try array()
            case "\"": try string()
            case "-", "0"..."9": try number()
            case "t", "f", "n":
                let start = position
                let word = bareWord()
                guard ["true", "false", "null"].contains(word) else {
                    throw fail("'\(word)' is not a JSON value; write strings in double quotes", at: start)
                }
            default:
                throw unexpected(scalar)
            }
        }

        /// The error for a character that cannot start a value.
        mutating func unexpected(_ scalar: Unicode.Scalar) -> Failure {
            switch scalar {
            case "#": return fail("comments are not allowed")
            case "/": return fail("comments are not allowed")
            case "'": return fail("strings must be in double quotes, not single quotes")
            case "!": return fail("YAML tags are not allowed")
            case "&", "*": return fail("YAML anchors and aliases are not allowed")
            case "]", "}", ",", ":": return fail("unexpected \(describe(scalar)); a value is missing")
            default:
                let start = position
                let word = bareWord()
                return word.isEmpty ? fail("unexpected \(describe(scalar))", at: start)
                    : fail("'\(word)' is not a JSON value; write strings in double quotes", at: start)
            }
        }

        /// A run of letters, digits and `_.+-` (for messages), at most 40 characters shown.
        mutating func bareWord() -> String {
            var word = String.UnicodeScalarView()
            while let scalar = current, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.+-".unicodeScalars.contains(scalar) {
                if word.count < 40 { word.append(scalar) }
                advance()
            }
            return String(word)
        }

        mutating func enter() throws {
            depth += 1
            if depth > maxDepth { throw fail("nesting is deeper than \(maxDepth) levels") }
        }

        mutating func object() throws {
            try enter()
            advance() // {
            skipWhitespace()
            if current == "}" {
                advance()
                depth -= 1
                return
            }
            var afterComma = false
            while true {
                guard let scalar = current else { throw fail("unexpected end of input; the object is not closed") }
                guard scalar == "\"" else {
                    if afterComma, scalar == "}" || scalar == "]" { throw fail("trailing comma before \(describe(scalar))", at: lastComma) }
                    if scalar == "'" || scalar == "#" || scalar == "/" || scalar == "!" { throw unexpected(scalar) }
                    throw fail("object keys must be strings in double quotes")
                }
                try string()
                skipWhitespace()
                guard current == ":" else {
                    throw current.map { fail("expected ':' after the key, found \(describe($0))") } ?? fail("unexpected end of input; expected ':'")
                }
                advance()
                skipWhitespace()
                try value()
                if try closes(with: "}", what: "object") { return }
                afterComma = true
            }
        }

        /// After a member or element: a comma (another one follows; false) or `closing` (the
        /// container ends; true). Anything else is an error at its place.
        mutating func closes(with closing: Unicode.Scalar, what: String) throws -> Bool {
            skipWhitespace()
            switch current {
            case ",":
                lastComma = position
                advance()
                skipWhitespace()
                return false
            case closing:
                advance()
                depth -= 1
                return true
            case nil:
                throw fail("unexpected end of input; the \(what) is not closed")
            case let other?:
                throw other == "#" || other == "/" ? unexpected(other) : fail("expected ',' or '\(closing)', found \(describe(other))")
            }
        }

        mutating func array() throws {
            try enter()
            advance() // [
            skipWhitespace()
            if current == "]" {
                advance()
                depth -= 1
                return
            }
            var afterComma = false
            while true {
                if afterComma, let scalar = current, scalar == "]" || scalar == "}" {
                    throw fail("trailing comma before \(describe(scalar))", at: lastComma)
                }
                try value()
                if try closes(with: "]", what: "array") { return }
                afterComma = true
            }
        }

        mutating func number() throws {
            let start = position
            func digits() -> Int {
                var count = 0
                while let scalar = current, ("0"..."9").contains(scalar) {
                    advance()
                    count += 1
                }
                return count
            }
            if current == "-" { advance() }
            if current == "0" {
                advance()
                if let scalar = current, ("0"..."9").contains(scalar) { throw fail("numbers must not have leading zeros", at: start) }
            } else if digits() == 0 {
                throw fail("'-' must be followed by digits", at: start)
            }
            if current == "." {
                advance()
                if digits() == 0 { throw fail("a decimal point must be followed by digits", at: start) }
            }
            if current == "e" || current == "E" {
                advance()
                if current == "+" || current == "-" { advance() }
                if digits() == 0 { throw fail("an exponent must have digits", at: start) }
            }
            if let scalar = current, scalar.properties.isAlphabetic || scalar == "_" || scalar == "." {
                let rest = bareWord()
                throw fail("'\(rest)' after a number; write strings in double quotes", at: start)
            }
        }

        mutating func string() throws {
            // Fast path: printable ASCII without escapes (nearly every version name) needs no
            // decoding and no replacement; one column per byte, no line break inside.
            var probe = index + 1
            while probe < bytes.count {
                let byte = bytes[probe]
                if byte == UInt8(ascii: "\"") {
                    column += probe + 1 - index
                    index = probe + 1
                    return
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x7F { break }
                probe += 1
            }
            let start = position
            advance() // "
            var decoded = String.UnicodeScalarView()
            var needsReplacing: [(Range<Int>, Int, UInt8)] = []
            while true {
                guard let scalar = current else { throw fail("unterminated string", at: start) }
                if scalar == "\"" {
                    advance()
                    break
                }
                if scalar.value < 0x20 {
                    throw fail("control character U+\(hex(scalar.value)) in a string; escape it")
                }
                if scalar != "\\" {
                    if !isYAMLPrintable(scalar) || isYAMLBreak(scalar) {
                        needsReplacing.append((index..<(index + decode(at: index).length), 1, UInt8(ascii: "x")))
                    }
                    decoded.append(scalar)
                    advance()
                    continue
                }
                let escapeStart = position
                let escapeIndex = index
                advance()
                guard let letter = current else { throw fail("unterminated string", at: start) }
                advance()
                switch letter {
                case "\"": decoded.append("\"")
                case "\\": decoded.append("\\")
                case "/": decoded.append("/")
                case "b": decoded.append("\u{08}")
                case "f": decoded.append("\u{0C}")
                case "n": decoded.append("\n")
                case "r": decoded.append("\r")
                case "t": decoded.append("\t")
                case "u":
                    let high = try hex4(escapeStart)
                    switch high {
                    case 0xD800...0xDBFF:
                        guard current == "\\", index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("'\\u\(hex(high))' is half of a surrogate pair; the low half is missing", at: escapeStart)
                        }
                        advance()
                        advance()
                        let low = try hex4(escapeStart)
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw fail("'\\u\(hex(high))' is half of a surrogate pair; '\\u\(hex(low))' is not a low surrogate", at: escapeStart)
                        }
                        decoded.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!)
                        needsReplacing.append((escapeIndex..<index, 12, UInt8(ascii: "x")))
                    case 0xDC00...0xDFFF:
                        throw fail("'\\u\(hex(high))' is the low half of a surrogate pair without its high half", at: escapeStart)
                    default:
                        decoded.append(Unicode.Scalar(high)!)
                    }
                default:
                    throw fail("invalid escape '\\\(String(letter))'", at: escapeStart)
                }
            }
            if !needsReplacing.isEmpty {
                replacements.append(contentsOf: needsReplacing)
                decodedStrings[start] = String(decoded)
            }
        }

        mutating func hex4(_ escapeStart: Position) throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let scalar = current, let digit = hexDigit(scalar) else {
                    throw fail("'\\u' must be followed by four hexadecimal digits", at: escapeStart)
                }
                value = value << 4 | digit
                advance()
            }
            return value
        }

        func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
            switch scalar {
            case "0"..."9": return scalar.value - 0x30
            case "a"..."f": return scalar.value - 0x61 + 10
            case "A"..."F": return scalar.value - 0x41 + 10
            default: return nil
            }
        }

        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: false)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }

        func describe(_ scalar: Unicode.Scalar) -> String {
            scalar.value < 0x20 || scalar.value == 0x7F ? "U+\(hex(scalar.value))" : "'\(Character(scalar))'"
        }
    }
}
