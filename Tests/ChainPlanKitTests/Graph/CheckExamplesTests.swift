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
        #expect(!diagnostics.contains { $0.code == .unreadableSpec }, "example spec must parse: \(diagnostics)")
        let found = diagnostics.filter { $0.code == c.code }
            .map { CheckExample.Finding(line: $0.location?.line, column: $0.location?.column) }
        #expect(found == c.example.expected, "\(diagnostics.map { "\($0.location?.description ?? "-") \($0.code.rawValue) \($0.message)" })")
    }

    @Test func everyChainCheckHasATriggeringAndANonTriggeringExample() {
        for check in ChainChecks.all where type(of: check).code != .inferredOrder {
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
        let read = SpecReader().read(data: Data(test.spec.utf8), displayPath: "chain.json", syntax: .json)
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
