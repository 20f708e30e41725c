import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanPlanning

/// CP513 on custom-stage lists whose walks settle stages known to be on no cycle (so a long run
/// of custom stages is walked once, not once from every stage): the same cycles are found, each
/// once, named from its first stage.
struct StageAuditCycleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        /// `[current, next]` of each custom stage, in order (a lightweight stage of `A` comes first).
        var customs: [[String]]
        /// Each expected finding's stage numbers (1-based, the lightweight stage is 1).
        var cycles: [[Int]]
        var testDescription: String { title }
    }

    static let cases: [Case] = [
        Case(title: "a run of custom stages ending on the app model: no cycle",
             customs: [["A", "B"], ["B", "C"], ["C", "D"], ["D", "E"]], cycles: []),
        Case(title: "a run leading into a cycle it is not on: the cycle once, from its first stage",
             customs: [["A", "B"], ["B", "C"], ["C", "D"], ["D", "C"]], cycles: [[4, 5]]),
        Case(title: "a cycle listed first, then stages walking into it",
             customs: [["C", "D"], ["D", "C"], ["A", "B"], ["B", "C"]], cycles: [[2, 3]]),
        Case(title: "a cycle through the first stage after a settled run",
             customs: [["X", "Y"], ["Y", "Z"], ["A", "B"], ["B", "A"]], cycles: [[4, 5]]),
        Case(title: "two cycles", customs: [["A", "B"], ["B", "A"], ["C", "D"], ["D", "C"]], cycles: [[2, 3], [4, 5]]),
        Case(title: "a stage whose walk reaches a settled stage", customs: [["B", "C"], ["C", "D"], ["A", "B"]], cycles: []),
    ]

    @Test(arguments: cases)
    func cycles(_ c: Case) {
        let stages = [RuntimeStage(kind: .lightweight, keys: ["A"], hasHandlers: false)]
            + c.customs.map { RuntimeStage(kind: .custom, keys: $0, hasHandlers: true) }
        let location = SourceLocation(file: "stages.json")
        let audit = StageAudit(stages: stages, locations: Array(repeating: location, count: stages.count), shipped: ["A"], app: "E",
                               known: Set(stages.flatMap(\.keys)), name: { $0 }, starts: [], location: location)
        let found = audit.findings().filter { $0.code == .stageCycle }
        #expect(found.map(\.message).map { message in
            // "custom stages 3, 4 form a cycle …": the stage numbers.
            message.dropFirst("custom stages ".count).prefix { $0 != "f" }.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        } == c.cycles, "\(found.map(\.message))")
    }
}
