import Testing
@testable import ChainPlanCore
@testable import ChainPlanPlanning

/// `StageHintCheck`'s examples: a `stages` hint that names no step of the staged order is CP515,
/// one that names a step (or crosses versions listed as one) is not.
struct StageHintCheckTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var hint: String
        var units: [[String]]
        /// Words the message must contain; nil: no finding.
        var says: String?
        var testDescription: String { "\(hint) over \(units)" }
    }

    static let three = [["V1"], ["V2"], ["V3"]]
    static let cases: [Case] = [
        Case(hint: "V1 -> V2", units: three, says: nil),
        Case(hint: "V2 -> V3", units: three, says: nil),
        Case(hint: "V1 -> V3", units: three, says: "stores migrate 'V1' → 'V2' → 'V3'"),
        Case(hint: "V2 -> V1", units: three, says: "stores migrate 'V1' → 'V2', not back"),
        Case(hint: "V1 -> V9", units: three, says: "'V9' is not a version"),
        Case(hint: "V0 -> V9", units: three, says: "'V0' and 'V9' are not versions"),
        Case(hint: "V1 -> V3", units: [["V1"], ["V2", "V3"]], says: nil),
        Case(hint: "V2 -> V3", units: [["V1"], ["V2", "V3"]], says: "listed as one version"),
    ]

    @Test(arguments: cases)
    func hint(_ c: Case) throws {
        let parts = c.hint.components(separatedBy: " -> ")
        let key = StepKey(from: parts[0], to: parts[parts.count - 1])
        let at = SourceLocation(file: "chain.json", line: 3, column: 14)
        let findings = StageHintCheck.findings(marked: [key], units: c.units, locations: [key: at],
                                               fallback: SourceLocation(file: "chain.json"))
        guard let says = c.says else {
            #expect(findings.isEmpty, "\(findings.map(\.message))")
            return
        }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == .stageHintNotAStep)
        #expect(finding.severity == .warning)
        #expect(finding.location == at)
        #expect(finding.versions == [key.from, key.to])
        #expect(finding.message.contains(says), "\(finding.message)")
        #expect(finding.message.hasSuffix("the hint marks nothing"))
    }

    /// Hints without a place of their own (`.chainplan.yml`) are located at the spec, and every
    /// finding comes in one deterministic order.
    @Test func hintsFromTheConfigurationAreLocatedAtTheSpecInOrder() {
        let spec = SourceLocation(file: "chain.json")
        let findings = StageHintCheck.findings(marked: [StepKey(from: "V3", to: "V1"), StepKey(from: "V1", to: "V3")],
                                               units: Self.three, locations: [:], fallback: spec)
        #expect(findings.map(\.location) == [spec, spec])
        #expect(findings.map(\.versions) == [["V1", "V3"], ["V3", "V1"]])
    }
}
