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

/// Decompositions of a step into inferable steps plus a custom stage (expand → copy → contract):
/// each pattern's suggestion, every step of it classified by the chain's own classifier, the
/// decomposed chain planned with its custom stage marked, and that plan's Swift type-checked.
struct StageDecompositionTests {
    static let aircraftV1 = #"<entity name="Aircraft"><attribute name="name" optional="YES" attributeType="String"/><attribute name="flightData" optional="YES" attributeType="Binary"/></entity>"#
    static let aircraftV2 = #"<entity name="Aircraft"><attribute name="name" optional="YES" attributeType="String"/><relationship name="flightRecord" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="FlightData" inverseName="aircraft" inverseEntity="FlightData"/></entity>"#
        + #"<entity name="FlightData"><attribute name="data" optional="YES" attributeType="Binary"/><relationship name="aircraft" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Aircraft" inverseName="flightRecord" inverseEntity="Aircraft"/></entity>"#
    static let personV1 = #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="street" optional="YES" attributeType="String"/><attribute name="city" optional="YES" attributeType="String"/></entity>"#
    static let personV2 = #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><relationship name="addresses" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Address" inverseName="person" inverseEntity="Address"/></entity>"#
        + #"<entity name="Address"><attribute name="city" optional="YES" attributeType="String"/><attribute name="street" optional="YES" attributeType="String"/><relationship name="person" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="addresses" inverseEntity="Person"/></entity>"#
    static let noteOptional = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let noteMandatory = #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#
    static let noteMandatoryWithBody = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/><attribute name="count" attributeType="Integer 32"/><attribute name="title" attributeType="String"/></entity>"#

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var versions: [String]
        var pattern: Decomposition.Pattern
        var intermediates: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "decompose-attribute-to-entity", versions: [aircraftV1, aircraftV2], pattern: .attributeToEntity, intermediates: 1),
        Case(name: "decompose-entity-split", versions: [personV1, personV2], pattern: .entitySplit, intermediates: 1),
        Case(name: "decompose-optional-to-mandatory", versions: [noteOptional, noteMandatory], pattern: .optionalToMandatory, intermediates: 0),
        Case(name: "decompose-mandatory-with-other-changes", versions: [noteOptional, noteMandatoryWithBody], pattern: .optionalToMandatory, intermediates: 1),
    ]

    @Test(arguments: cases)
    func suggestion(_ c: Case) throws {
        let example = RuleExample.stages("", versions: c.versions, stages: nil, expected: 0)
        let plan = try #require(example.stagePlan())
        try StageTests.checkGoldens(plan, name: c.name)
        let decomposition = try #require(plan.decompositions?.first)
        #expect(plan.decompositions?.count == 1)
        #expect(decomposition.pattern == c.pattern)
        #expect(decomposition.intermediates.count == c.intermediates)
        #expect(decomposition.steps.filter { $0.stage == .custom }.count == 1)
        // Proof: every step of the decomposed chain, classified afresh by the project's
        // classifier on the bundle with the intermediates inserted, is lightweight.
        let bundle = try #require(Self.bundle(example))
        let expanded = StageDecomposer.expanded(bundle, with: [decomposition])
        let classifier = StepClassifier(bundle: expanded)
        let chain = decomposition.chain
        #expect(StageDecomposer.expandedOrder(bundle.versionNames, with: [decomposition]) == chain)
        for (from, to) in zip(chain, chain.dropFirst()) {
            #expect(classifier.classify(from: from, to: to).0.migration == .lightweight, "\(from) → \(to)")
        }
        #expect(zip(decomposition.steps, zip(chain, chain.dropFirst())).allSatisfy { $0.from == $1.0 && $0.to == $1.1 && $0.migration == .lightweight })
        // The decomposed chain, its custom step marked as --write-models prints it: the custom
        // stage carries the copy (or fill) work, and its Swift compiles against the stub.
        let marked = Set(decomposition.steps.filter { $0.stage == .custom }.map { StepKey(from: $0.from, to: $0.to) })
        let identities = VersionIdentities(byVersion: Dictionary(uniqueKeysWithValues: chain.map { ($0, VersionIdentity(checksum: "sum-\($0)")) }), source: "example")
        let decomposed = StageSynthesis(bundle: expanded, order: chain, identities: identities, marked: marked, location: SourceLocation(file: "chain.json")).plan()
        let custom = try #require(decomposed.stages.first { $0.kind == .custom })
        #expect(custom.work.map(\.entity) == decomposition.steps.first { $0.stage == .custom }?.work.map(\.entity))
        #expect(custom.work.allSatisfy { $0.copy != nil || $0.fillTypes != nil })
        #expect(decomposed.starts.allSatisfy { $0.error == nil && $0.endsOn == decomposed.appModel })
        #expect(decomposed.decompositions == nil)
        let swift = try #require(StagePlanSwift.render(decomposed))
        #expect(try Golden.check(Data(swift.utf8), against: "Golden/stages/\(c.name).swift.txt"))
        let problems = try StageCodeTests.typecheck(swift, name: "Decomposed_\(c.name.replacingOccurrences(of: "-", with: "_"))")
        #expect(problems == nil, "\(problems ?? "")")
        // Nothing left to guess in a copy; a fill leaves only the value to the user.
        #expect(swift.contains("TODO") == (c.pattern == .optionalToMandatory))
    }

    /// Steps that match no pattern get no suggestion (a lone removal, a plain addition).
    @Test func noPatternNoSuggestion() throws {
        let removal = RuleExample.stages("", versions: [Self.aircraftV1, #"<entity name="Aircraft"><attribute name="name" optional="YES" attributeType="String"/></entity>"#], stages: nil, expected: 0)
        #expect(try #require(removal.stagePlan()).decompositions == nil)
        // A new entity with an attribute of the same type, but named unlike the removed one.
        let unrelated = RuleExample.stages("", versions: [Self.aircraftV1, Self.aircraftV2.replacingOccurrences(of: "FlightData", with: "Logbook")], stages: nil, expected: 0)
        #expect(try #require(unrelated.stagePlan()).decompositions == nil)
    }

    static func bundle(_ example: RuleExample) -> ModelBundle? {
        guard case .stages(let versions, _, _) = example.input else { return nil }
        let bundle = RuleExampleRuns.bundle(versions).bundle
        return bundle.versions.allSatisfy { $0.model != nil } ? bundle : nil
    }
}
