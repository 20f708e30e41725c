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

/// The classification codes' documented examples (`chainplan rules CPnnn`) are their tests: each
/// raises exactly the stated number of findings of its code, through the real parser and classifier.
struct ClassificationExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: DiagnosticCode
        var example: ClassificationExample
        var testDescription: String { "\(code.rawValue): \(example.title)" }
    }

    /// Every classification code with examples. CP208 (a mapping model that does not match its
    /// step) is an input example (InputExamples: a mapping model file and the spec that assigns it);
    /// stale embedded snapshots are tested by MappingMatcherTests on real and built mapping models.
    static let codes: [DiagnosticCode] = [.notInferable, .renameWithoutIdentifier, .couldFailValidation, .attributeTypeChange, .hierarchyChange, .mappingModelOnInferableStep, .directJumpFails, .dataRemoved, .unverifiedChange, .propertyKindChange]

    static let cases: [Case] = codes.flatMap { code in ClassificationExamples.examples(for: code).map { Case(code: code, example: $0) } }

    @Test(arguments: cases)
    func example(_ c: Case) {
        let diagnostics = c.example.run()
        #expect(!diagnostics.contains { $0.code.rule.unusableInput }, "the example's models must read: \(diagnostics)")
        #expect(diagnostics.filter { $0.code == c.code }.count == c.example.expected,
                "\(diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
    }

    @Test func everyCodeHasATriggeringAndANonTriggeringExample() {
        for code in Self.codes {
            let examples = ClassificationExamples.examples(for: code)
            #expect(examples.contains { $0.expected > 0 }, "\(code)")
            #expect(examples.contains { $0.expected == 0 }, "\(code)")
        }
    }
}
