import ChainPlanCore
import Foundation
import Yams

/// A JSON or YAML input file, checked and composed the way every chainplan input is: size
/// limit, UTF-8 (a BOM is accepted), no NUL, `StructureGuard` (depth, aliases) and, for JSON,
/// `StrictJSON` before Yams composes it, and parser errors with their line and column.
package enum CheckedYAML {
    package struct Failure: Error {
        package var message: String
        package var line: Int?
        package var column: Int?
    }

    /// The composed root (nil for an empty document) and the byte count, or the first problem.
    /// `what` names the input in messages ("the spec", "the configuration").
    package static func compose(_ data: Data, syntax: SpecSyntax, what: String, maxBytes: Int, limitOption: String) -> Result<(root: Node?, bytes: Int), Failure> {
        if data.count > maxBytes {
            return .failure(Failure(message: "\(what) is \(data.count) bytes, over the limit of \(maxBytes) bytes (\(limitOption))"))
        }
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (line, column) = TextPosition.firstInvalidUTF8(in: bytes)
            return .failure(Failure(message: "\(what) is not valid UTF-8", line: line, column: column))
        }
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            let (line, column) = TextPosition.position(of: nul, in: text)
            return .failure(Failure(message: "\(what) contains a NUL character", line: line, column: column))
        }
        if text.allSatisfy(\.isWhitespace) { return .success((nil, bytes.count)) }
        if let violation = StructureGuard().check(text) {
            return .failure(Failure(message: violation.message, line: violation.line, column: violation.column))
        }
        // JSON must be strict JSON; the text Yams composes keeps every line and column.
        var composable = text
        var restored: [StrictJSON.Position: String] = [:]
        if syntax == .json {
            switch StrictJSON.prepare(text) {
            case .failure(let failure):
                return .failure(Failure(message: failure.message, line: failure.line, column: failure.column))
            case .success(let prepared):
                composable = prepared.text
                restored = prepared.strings
            }
        }
        do {
            // `.basic`: no implicit typing while composing. The readers look only at each
            // scalar's text, style and explicit tag, never at a resolved type, so the default
            // resolver's regular expressions (compiled on first use) would be start-up cost only.
            let root = try Yams.compose(yaml: composable, .basic)
            return .success((root.map { StrictJSON.restore(restored, in: $0) }, bytes.count))
        } catch let error as YamlError {
            let (message, line, column) = describe(error, syntax: syntax)
            let (clampedLine, clampedColumn) = TextPosition.clamp(line: line, column: column, in: text)
            return .failure(Failure(message: message, line: clampedLine, column: clampedColumn))
        } catch {
            return .failure(Failure(message: "\(what) cannot be parsed: \(error)"))
        }
    }

    private static func describe(_ error: YamlError, syntax: SpecSyntax) -> (String, Int?, Int?) {
        let kind = syntax == .json ? "JSON" : "YAML"
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var message = "invalid \(kind): \(problem)"
            if let context { message += " \(context.text)" }
            return (message, mark.line, mark.column)
        case let .reader(problem, _, _, _):
            return ("invalid \(kind): \(problem)", nil, nil)
        default:
            return ("invalid \(kind): \(error)", nil, nil)
        }
    }
}
