import Testing
@testable import ChainPlanKit

/// Every chain check's documented examples are its tests: each must produce exactly the
/// listed findings of the check's code, at the listed line and column.
struct CheckExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: DiagnosticCode
        var example: CheckExample
        var testDescription: String { "\(code.rawValue): \(example.title)" }
    }

    static let cases: [Case] = ChainChecks.all.flatMap { check in
        type(of: check).examples.map { Case(code: type(of: check).code, example: $0) }
    }

    @Test(arguments: cases)
    func example(_ c: Case) {
        // The same run `chainplan rules CPnnn` shows.
        let diagnostics = c.example.run()
        #expect(!diagnostics.contains { $0.code == .cp100 }, "example spec must parse: \(diagnostics)")
        let found = diagnostics.filter { $0.code == c.code }
            .map { CheckExample.Finding(line: $0.location?.line, column: $0.location?.column) }
        #expect(found == c.example.expected, "\(diagnostics.map { "\($0.location?.description ?? "-") \($0.code.rawValue) \($0.message)" })")
    }

    @Test func everyChainCheckHasATriggeringAndANonTriggeringExample() {
        for check in ChainChecks.all where type(of: check).code != .cp110 {
            let examples = type(of: check).examples
            #expect(examples.contains { !$0.expected.isEmpty }, "\(type(of: check).code)")
            #expect(examples.contains { $0.expected.isEmpty }, "\(type(of: check).code)")
        }
    }

    @Test func everyCodeHasARule() {
        for code in DiagnosticCode.allCases {
            #expect(code.rule.code == code)
            #expect(!code.rule.summary.hasSuffix("."))
        }
        #expect(Rule.all.count == DiagnosticCode.allCases.count)
    }
}
