import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Staged migration plans (`chainplan stage`): golden plans for every
/// example chain and for multi-step cases, and each plan proved against reference §6.1 per start.
struct StageTests {
    static let chains = ["aircraft-staged", "corestore-tree", "events-two-passes", "grocery-dude", "notas"]

    @Test(arguments: chains)
    func examplePlan(_ name: String) throws {
        var options = PlanOptions()
        options.baseDirectory = CLITests.root
        let spec = CLITests.root.appendingPathComponent("Chains/\(name)/chain.json")
        let outcome = ChainPlanner(options: options).stagePlan(inputAt: spec, identities: { _ in nil })
        let plan = try #require(outcome.plan)
        try Self.checkGoldens(plan, name: name)
        // Every start is simulated; only a step nothing can migrate (events) may fail.
        #expect(Set(plan.starts.map(\.version)) == Set(plan.listedVersions + plan.merged.map(\.version)))
        if name != "events-two-passes" {
            #expect(plan.findings.isEmpty, "\(plan.findings.map(\.message))")
            #expect(plan.starts.allSatisfy { $0.error == nil && $0.endsOn == plan.appModel })
        }
    }

    struct MultiStep: Sendable, CustomTestStringConvertible {
        var name: String
        var example: RuleExample
        var testDescription: String { name }
    }

    static let multiStep: [MultiStep] = [
        MultiStep(name: "removed-then-retyped", example: RuleExample.stages("", versions: [RuleExampleFixtures.noteWithBody, RuleExampleFixtures.untitled, RuleExampleFixtures.bodyAndNumericTitle], stages: nil, expected: 0)),
        MultiStep(name: "renames-chain", example: RuleExample.stages("", versions: [RuleExampleFixtures.note, RuleExampleFixtures.heading, RuleExampleFixtures.caption], stages: nil, expected: 0)),
        MultiStep(name: "renames-keep-original-identifier", example: RuleExample.stages("", versions: [RuleExampleFixtures.note, RuleExampleFixtures.heading,
            #"<entity name="Note"><attribute name="caption" optional="YES" attributeType="String" elementID="title"/></entity>"#], stages: nil, expected: 0)),
        MultiStep(name: "hash-identical", example: RuleExample.stages("", versions: [RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody], sameChecksum: [2], stages: nil, expected: 0)),
    ]

    @Test(arguments: multiStep)
    func multiStepPlan(_ c: MultiStep) throws {
        let plan = try #require(c.example.stagePlan())
        try Self.checkGoldens(plan, name: c.name)
        #expect(plan.starts.allSatisfy { $0.error == nil && $0.endsOn == plan.appModel }, "\(plan.starts)")
        #expect(plan.starts.allSatisfy { $0.jumps.allSatisfy(\.lostComparedToSteps.isEmpty) })
        switch c.name {
        case "removed-then-retyped":
            // The direct jump fails: a handler-less custom stage forces stepping.
            #expect(plan.stages.contains { $0.kind == .custom && !$0.handlers && $0.reason.hasPrefix("forces stepping") })
        case "renames-chain":
            // Core Data keys each side by its own identifier-or-name (§4.1): 'caption' (identifier
            // 'heading') does not match V2's 'heading' (key 'title'), so the step V2 → V3 itself
            // drops the value, as the jump does. Stepping keeps nothing more: no forced stage.
            #expect(!plan.stages.contains { $0.reason.hasPrefix("forces stepping") })
        case "renames-keep-original-identifier":
            #expect(plan.stages.map(\.kind) == [.lightweight])
        default:
            #expect(plan.merged.map(\.version) == ["V2"])
            #expect(plan.findings.map(\.code) == [.identicalChecksums])
        }
    }

    static func checkGoldens(_ plan: StagePlan, name: String) throws {
        #expect(try Golden.check(Data(StagePlanRendering.text(plan).utf8), against: "Golden/stages/\(name).txt"))
        #expect(try Golden.check(StagePlanRendering.json(plan), against: "Golden/stages/\(name).json"))
        #expect(try Golden.check(Data(StagePlanRendering.markdown(plan).utf8), against: "Golden/stages/\(name).md"))
    }

    @Test func checkAuditsAStageListFileWithLocations() throws {
        let example = try #require(DiagnosticCode.duplicateChecksumInStage.examples.first)
        let findings = try example.run().filter { $0.code == .duplicateChecksumInStage }
        #expect(findings.first?.location?.line == 2)
        let json = #"[{"kind": "lightweight", "checksums": ["a"]}, {"kind": "custom", "checksums": ["b"]}]"#
        let read = StageListAudit.read(json, file: "stages.json")
        guard case .failure(let problem) = read else { Issue.record("a custom stage with one checksum must be refused"); return }
        #expect(problem.diagnostic.code == .unreadableSpec)
        #expect(problem.diagnostic.location?.line == 1)
    }
}
