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

/// The input codes' documented examples (`chainplan rules CPnnn`) are their tests: each project
/// folder, run through the real pipeline (validate, lock, dry-run), raises exactly the stated
/// number of findings of its code.
struct InputExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: DiagnosticCode
        var example: InputExample
        var testDescription: String { "\(code.rawValue): \(example.title)" }
    }

    static let codes: [DiagnosticCode] = DiagnosticCode.allCases.filter { !InputExamples.examples(for: $0).isEmpty }

    static let cases: [Case] = codes.flatMap { code in InputExamples.examples(for: code).map { Case(code: code, example: $0) } }

    @Test(arguments: cases)
    func example(_ c: Case) throws {
        let diagnostics = try c.example.run()
        #expect(diagnostics.filter { $0.code == c.code }.count == c.example.expected,
                "\(diagnostics.map { "\($0.location?.description ?? "-") \($0.code.rawValue) \($0.message)" })")
        // A counterexample runs cleanly: nothing unusable.
        if c.example.expected == 0 {
            #expect(!diagnostics.contains { $0.code.rule.unusableInput }, "\(diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        }
    }

    /// A mapping model matched by the paths it names, not by embedded models, is described so.
    @Test func misassignedMappingModelSaysHowItMatched() throws {
        let example = try #require(InputExamples.examples(for: .staleMappingModel).first { $0.expected > 0 })
        let finding = try #require(try example.run().first { $0.code == .staleMappingModel })
        #expect(finding.message.contains("(it names 'V2' → 'V3')"), "\(finding.message)")
    }

    @Test func everyInputCodeHasATriggeringAndANonTriggeringExample() {
        for code in Self.codes {
            let examples = InputExamples.examples(for: code)
            #expect(examples.contains { $0.expected > 0 }, "\(code)")
            #expect(examples.contains { $0.expected == 0 }, "\(code)")
        }
    }

    /// `chainplan rules CPnnn` explains every code with at least one example that triggers it.
    @Test func everyCodeHasARunnableExample() {
        for code in DiagnosticCode.allCases where !StageExamples.withoutFiringExample.contains(code) {
            let triggering = ChainChecks.examples(for: code).filter { !$0.expected.isEmpty }.count
                + ClassificationExamples.examples(for: code).filter { $0.expected > 0 }.count
                + InputExamples.examples(for: code).filter { $0.expected > 0 }.count
                + StageExamples.examples(for: code).filter { $0.expected > 0 }.count
            #expect(triggering > 0, "\(code.rawValue) has no example")
        }
    }
}
