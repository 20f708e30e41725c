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

/// "Did you mean" hints: every name tied at the best distance, at most three, in version order.
struct NameSuggestionsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var candidates: [String]
        var expected: [String]
        var testDescription: String { "\(name) among \(candidates)" }
    }

    static let cases: [Case] = [
        Case(name: "Model 5", candidates: ["Model", "Model 2", "Model 3", "Model 4"], expected: ["Model 2", "Model 3", "Model 4"]),
        Case(name: "Model 5", candidates: ["Model 4", "Model 3", "Model 2", "Model"], expected: ["Model 2", "Model 3", "Model 4"]),
        Case(name: "Model 11", candidates: ["Model 10", "Model 9", "Model 12", "Model 13", "Model 2"],
             expected: ["Model 10", "Model 12", "Model 13"]),
        Case(name: "Modle 3", candidates: ["Model", "Model 2", "Model 3"], expected: ["Model 3"]),
        Case(name: "Zebra", candidates: ["Model", "Model 2"], expected: []),
        Case(name: "A", candidates: [], expected: []),
    ]

    @Test(arguments: cases)
    func nearest(_ c: Case) {
        #expect(NameSuggestions.nearest(to: c.name, among: c.candidates) == c.expected)
    }

    @Test func phrase() {
        #expect(NameSuggestions.phrase([]) == "")
        #expect(NameSuggestions.phrase(["A"]) == "'A'")
        #expect(NameSuggestions.phrase(["A", "B"]) == "'A' or 'B'")
        #expect(NameSuggestions.phrase(["A", "B", "C"]) == "'A', 'B' or 'C'")
    }
}
