import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// The lexical guard in front of the YAML composer: depth, aliases, and token length.
@Suite struct StructureGuardTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        /// Expected message prefix and line, or nil when the text passes.
        var refused: (String, Int)?
        var testDescription: String { name }
    }

    static let long = String(repeating: "x", count: 65_537)

    static let cases: [Case] = [
        Case(name: "plain array", text: #"["A", "B"]"#, refused: nil),
        Case(name: "64 levels", text: String(repeating: "[", count: 64) + String(repeating: "]", count: 64), refused: nil),
        Case(name: "65 levels", text: String(repeating: "[", count: 65), refused: ("nesting is deeper than 64 levels", 1)),
        Case(name: "alias", text: "a: &x [A]\nb: *x\n", refused: ("YAML aliases are not supported", 2)),
        Case(name: "asterisk inside quotes", text: #"["*A", "B"]"#, refused: nil),
        Case(name: "name at the limit", text: "[\"" + String(repeating: "x", count: 65_534) + "\"]", refused: nil),
        Case(name: "quoted token over the limit", text: "[\"A\",\n \"" + long + "\"]", refused: ("a token is longer than 65536 characters", 2)),
        Case(name: "plain token over the limit", text: "- A\n- " + long + "\n", refused: ("a token is longer than 65536 characters", 2)),
        Case(name: "brackets inside quotes do not split a token", text: "[\"" + String(repeating: "x[,]", count: 20_000) + "\"]",
             refused: ("a token is longer than 65536 characters", 1)),
        Case(name: "many short names", text: "[" + Array(repeating: "\"Model\"", count: 20_000).joined(separator: ", ") + "]", refused: nil),
    ]

    @Test(arguments: cases)
    func guardDecides(_ item: Case) {
        let violation = StructureGuard().check(item.text)
        if let (message, line) = item.refused {
            #expect(violation?.message.hasPrefix(message) == true, "\(String(describing: violation))")
            #expect(violation?.line == line)
        } else {
            #expect(violation == nil)
        }
    }
}
