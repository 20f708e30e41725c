import ChainPlanCore
import ChainPlanReaders
import Foundation
import SwiftParser
import SwiftSyntax

/// One parsed Swift file: its display path, its syntax tree, and the offsets where its lines
/// start, which turn tree positions into 1-based lines and columns.
package struct ParsedSwiftFile {
    /// The path findings show.
    package var path: String
    /// The parsed file.
    package var tree: SourceFileSyntax
    /// The text's UTF-8 bytes, for columns in Unicode scalars.
    private var utf8: [UInt8]
    /// The UTF-8 offset where each line starts, in order (lines end at "\n", "\r\n" or a lone
    /// "\r", as the parser counts them).
    private var lineStarts: [Int]

    /// Parses `text`, shown as `path`, under the reader's nesting limit.
    package init(path: String, text: String) {
        self.path = path
        var text = text
        self.tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: SwiftSourceLimits.maxNesting) }
        self.utf8 = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in utf8.enumerated() {
            let next = offset + 1 < utf8.count ? utf8[offset + 1] : nil
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && next != UInt8(ascii: "\n")) {
                starts.append(offset + 1)
            }
        }
        self.lineStarts = starts
    }

    /// Where `node` starts (after its leading trivia): 1-based line, and column in Unicode scalars
    /// (the scalars before it on its line: its UTF-8 bytes that start a scalar).
    package func location(of node: some SyntaxProtocol) -> ChainPlanCore.SourceLocation {
        let offset = min(max(0, node.positionAfterSkippingLeadingTrivia.utf8Offset), utf8.count)
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        let column = utf8[lineStarts[low]..<offset].reduce(0) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 } + 1
        return ChainPlanCore.SourceLocation(file: path, line: low + 1, column: column)
    }

    /// The first place where brackets (`(`, `[`, `{`) nest deeper than `limit`, as a 1-based
    /// line and column, or nil. Checked before parsing: the parser's look-ahead for types
    /// recurses once per `[` without its nesting limit, so deeper text must not reach it.
    /// Brackets inside strings and comments count too, which can only make the check stricter.
    package static func excessiveNesting(in text: String, limit: Int) -> (line: Int, column: Int)? {
        var depth = 0
        var line = 1
        var column = 0
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            column += 1
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where afterCarriageReturn:
                column = 0
            case "\n", "\r":
                line += 1
                column = 0
            case "(", "[", "{":
                depth += 1
                if depth > limit { return (line, column) }
            case ")", "]", "}":
                depth = max(0, depth - 1)
            default:
                break
            }
        }
        return nil
    }

    /// The first place the parser had to invent or skip text (a syntax error), with what it
    /// expected, or nil when the file parses cleanly.
    package func firstSyntaxError() -> (location: ChainPlanCore.SourceLocation, problem: String)? {
        guard tree.hasError else { return nil }
        let finder = SyntaxErrorFinder(viewMode: .all)
        finder.walk(tree)
        guard let found = finder.found else {
            return (location(of: tree), "the file does not parse")
        }
        return (location(of: found.node), found.problem)
    }
}

/// Finds the first missing token or unexpected text in a tree.
private final class SyntaxErrorFinder: SyntaxVisitor {
    var found: (node: Syntax, problem: String)?

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        if found == nil {
            let text = node.trimmedText
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            let oneLine = shown.unicodeScalars.map { CharacterSet.newlines.contains($0) ? " " : String($0) }.joined()
            found = (Syntax(node), "unexpected text '\(oneLine)'")
        }
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, token.presence == .missing {
            let expected = token.text.isEmpty ? "\(token.tokenKind)" : "'\(token.text)'"
            found = (Syntax(token), "expected \(expected)")
        }
        return .skipChildren
    }
}

/// Reads `.swift` files from a file or a folder, within `SwiftSourceLimits`.
package enum SwiftSourceFiles {
    /// A file that could not be read, or a limit that was hit, with its reason.
    package struct Problem: Error, Sendable, Hashable {
        /// The display path (with `:line:column` when the problem has a place).
        package var path: String
        /// Why, phrased to follow the quoted path.
        package var reason: String
    }

    /// The `.swift` files at `url` (a file, or every `.swift` file below a folder that
    /// `isSourcePath` accepts, sorted by path; symbolic links not followed), each with its display
    /// path. Problems are returned beside what could be read.
    package static func load(_ url: URL, displayPath: String) -> (files: [(path: String, text: String)], problems: [Problem]) {
        switch FileAccess.kind(at: url.path) {
        case .failure(let problem):
            return ([], [Problem(path: displayPath, reason: problem.reason)])
        case .success(.directory):
            return loadFolder(url, displayPath: displayPath)
        case .success(.regular):
            switch readText(url, displayPath: displayPath) {
            case .success(let text): return ([(displayPath, text)], [])
            case .failure(let problem): return ([], [problem])
            }
        case .success(.other(let kind)):
            return ([], [Problem(path: displayPath, reason: "is \(kind), not a Swift file or a folder")])
        }
    }

    private static func readText(_ url: URL, displayPath: String) -> Result<String, Problem> {
        switch FileAccess.readRegularFile(at: url, maxBytes: SwiftSourceLimits.maxFileBytes) {
        case .failure(let problem):
            return .failure(Problem(path: displayPath, reason: problem.reason))
        case .success(let data):
            guard let text = String(data: data, encoding: .utf8) else {
                let (line, column) = TextPosition.firstInvalidUTF8(in: data)
                return .failure(Problem(path: "\(displayPath):\(line):\(column)", reason: "not valid UTF-8"))
            }
            return .success(text)
        }
    }

    private static func loadFolder(_ url: URL, displayPath: String) -> (files: [(path: String, text: String)], problems: [Problem]) {
        var found: [String] = []
        var problems: [Problem] = []
        var tooMany = false
        func walk(_ folder: URL, relative: String, depth: Int) {
            guard !tooMany else { return }
            guard depth <= SwiftSourceLimits.maxFolderDepth else {
                problems.append(Problem(path: join(displayPath, relative), reason: "folders nested deeper than \(SwiftSourceLimits.maxFolderDepth) levels are not read"))
                return
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") && !ModelBundleDiscovery.skipped.contains(name) {
                let child = folder.appendingPathComponent(name)
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                // Symbolic links are not followed: a link cycle cannot loop, and a link cannot
                // reach a file outside the folder (a `.swift` link is refused, as the bundle reader does).
                let kind = ModelFiles.kind(at: child.path)
                if kind == .directory {
                    walk(child, relative: childRelative, depth: depth + 1)
                } else if kind == .symbolicLink, name.hasSuffix(".swift") {
                    problems.append(Problem(path: join(displayPath, childRelative), reason: "is a symbolic link; links inside a source folder are not followed"))
                } else if isSourcePath(childRelative) {
                    if found.count >= SwiftSourceLimits.maxFiles {
                        tooMany = true
                        return
                    }
                    found.append(childRelative)
                }
            }
        }
        walk(url, relative: "", depth: 0)
        if tooMany {
            problems.append(Problem(path: displayPath, reason: "more than \(SwiftSourceLimits.maxFiles) Swift files; name a smaller folder"))
            return ([], problems)
        }
        var files: [(path: String, text: String)] = []
        var total = 0
        for relative in found.sorted() {
            let shown = join(displayPath, relative)
            switch readText(url.appendingPathComponent(relative), displayPath: shown) {
            case .failure(let problem): problems.append(problem)
            case .success(let text):
                total += text.utf8.count
                if total > SwiftSourceLimits.maxTotalBytes {
                    problems.append(Problem(path: displayPath, reason: "more than \(ByteSize.describe(SwiftSourceLimits.maxTotalBytes)) of Swift source; name a smaller folder"))
                    return ([], problems)
                }
                files.append((shown, text))
            }
        }
        if files.isEmpty, problems.isEmpty {
            problems.append(Problem(path: displayPath, reason: "the folder holds no .swift files"))
        }
        return (files, problems)
    }

    /// True for a path, relative to a folder read, that is read as Swift source: a `.swift` file
    /// whose path has no hidden component and no folder bundle discovery skips (`Pods`,
    /// `DerivedData`, …). The same rule reads a folder in the work tree and at a git revision.
    package static func isSourcePath(_ relative: String) -> Bool {
        let components = relative.split(separator: "/")
        guard let name = components.last, name.hasSuffix(".swift") else { return false }
        return !components.contains { $0.hasPrefix(".") } && !components.dropLast().contains { ModelBundleDiscovery.skipped.contains(String($0)) }
    }

    /// `relative` under `base` as displayed (`.` is the working directory: no prefix).
    private static func join(_ base: String, _ relative: String) -> String {
        if relative.isEmpty { return base }
        if base == "." || base.isEmpty { return relative }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }
}

extension SyntaxProtocol {
    /// The node's source text without its leading and trailing trivia: `trimmedDescription`'s
    /// value, read from the node's bytes instead of from a trimmed copy of its tree.
    var trimmedText: String {
        let bytes = Syntax(self).syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        return String(decoding: bytes[start..<(start + trimmedLength.utf8Length)], as: UTF8.self)
    }
}
