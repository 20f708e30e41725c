import Foundation
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

/// Hostile specs can repeat a version millions of times: each check lists the first
/// `FindingList.defaultLimit` findings of its code and one closing finding counts the rest,
/// without building them.
struct FindingLimitTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var code: DiagnosticCode
        var spec: String
        var testDescription: String { code.rawValue }
    }

    static let count = FindingList.defaultLimit + 500

    static let cases: [Case] = [
        Case(code: .duplicateVersionInArray, spec: "[\"A\", " + Array(repeating: "\"B\", \"A\"", count: count).joined(separator: ", ") + "]"),
        Case(code: .duplicateSourceVersion, spec: "{" + Array(repeating: "\"A\": \"B\"", count: count + 1).joined(separator: ", ") + "}"),
        Case(code: .selfLoop, spec: "{" + (0...count).map { "\"V\($0)\": \"V\($0)\"" }.joined(separator: ", ") + "}"),
        Case(code: .migrationCycle, spec: "{" + (0..<count).map { "\"A\($0)\": \"B\($0)\", \"B\($0)\": \"A\($0)\"" }.joined(separator: ", ") + "}"),
        Case(code: .unreachableTarget, spec: "{\"chain\": {\"S\": \"T\", " + (0..<count).map { "\"D\($0)\": \"E\($0)\"" }.joined(separator: ", ") + "}, \"target\": \"T\"}"),
    ]

    @Test(arguments: cases)
    func findingsOfACodeAreCapped(_ test: Case) throws {
        let read = SpecReader(codes: PlanningRules.all).read(data: Data(test.spec.utf8), displayPath: "chain.json", syntax: .json)
        let spec = try #require(read.spec, "\(read.diagnostics.prefix(2))")
        let findings = ChainPlanner().plan(spec: spec, bundle: nil, isInferred: false).diagnostics.filter { $0.code == test.code }
        #expect(findings.count == FindingList.defaultLimit + 1)
        let closing = try #require(findings.first { $0.message.hasSuffix("(chainplan lists the first \(FindingList.defaultLimit) of each code)") })
        #expect(closing.severity == findings[0].severity)
        #expect(closing.location?.file == "chain.json")
    }

    @Test func underTheLimitNothingIsAdded() {
        var list = FindingList(.duplicateVersionInArray, limit: 2)
        list.add(Diagnostic(.duplicateVersionInArray, "one"))
        list.add(Diagnostic(.duplicateVersionInArray, "two"))
        #expect(list.finished(at: SourceLocation(file: "chain.json")).count == 2)
        list.add(Diagnostic(.duplicateVersionInArray, "three"))
        let finished = list.finished(at: SourceLocation(file: "chain.json"))
        #expect(finished.map(\.message) == ["one", "two", "1 more finding of this kind is not listed (chainplan lists the first 2 of each code)"])
    }
}
