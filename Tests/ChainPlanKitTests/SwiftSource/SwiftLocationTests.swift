import SwiftSyntax
import Testing
@testable import ChainPlanCore
@testable import ChainPlanSwiftSource

/// A node's location: 1-based line, whatever ends the lines before it, and column in Unicode
/// scalars.
@Suite struct SwiftLocationTests {
    static let cases: [(label: String, text: String, line: Int, column: Int)] = [
        ("first line", "let thing = 1", 1, 5),
        ("after LF", "\nlet thing = 1", 2, 5),
        ("after CRLF", "// a\r\n\r\nlet thing = 1", 3, 5),
        ("after a lone CR", "// a\r// b\rlet thing = 1", 3, 5),
        ("after scalars of several bytes", "/* é👍 */ let thing = 1", 1, 14),
        ("indented by a tab", "\n\tlet thing = 1", 2, 6),
    ]

    @Test(arguments: cases)
    func locationOfTheBinding(_ example: (label: String, text: String, line: Int, column: Int)) throws {
        let file = ParsedSwiftFile(path: "Models.swift", text: example.text)
        let binding = try #require(file.tree.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first?.pattern, "\(example.label)")
        #expect(file.location(of: binding) == SourceLocation(file: "Models.swift", line: example.line, column: example.column), "\(example.label)")
    }

    /// The nesting check counts lines as the parser does.
    @Test(arguments: [("a\r\rb((", 3, 3), ("a\r\n((", 2, 2), ("a\n\r\n((", 3, 2), ("((", 1, 2)])
    func excessiveNestingLine(_ text: String, _ line: Int, _ column: Int) {
        let found = ParsedSwiftFile.excessiveNesting(in: text, limit: 1)
        #expect(found?.line == line && found?.column == column, "\(text.debugDescription): \(String(describing: found))")
    }
}
