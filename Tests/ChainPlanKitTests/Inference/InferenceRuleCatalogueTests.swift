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

/// Every rule of `InferenceRules.all` runs the examples its description carries: each example's two
/// versions are parsed with the real reader, the mapping inferred, and the outcome (none, inferred,
/// validation, refused) and whether the rule fired checked.
struct InferenceRuleCatalogueTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: InferenceRule
        var example: RuleExample
        var testDescription: String { "\(rule.id): \(example.title)" }

        /// The example's two versions' `<entity>` elements (nil when it is not two versions).
        var versions: (source: String, destination: String)? {
            guard case let .versions(versions, _) = example.input, versions.count == 2 else { return nil }
            return (versions[0], versions[1])
        }
    }

    static let cases: [Case] = InferenceRules.all.flatMap { rule in rule.examples.map { Case(rule: rule, example: $0) } }

    static func model(_ entities: String, version: String) -> ObjectModel? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "\(version)/contents", version: version).model
    }

    @Test(arguments: cases)
    func example(_ c: Case) throws {
        guard case let .inference(outcome, fires) = c.example.expected else {
            Issue.record("an inference example expects an outcome")
            return
        }
        let versions = try #require(c.versions, "an inference example is two versions")
        let source = try #require(Self.model(versions.source, version: "V1"))
        let destination = try #require(Self.model(versions.destination, version: "V2"))
        let mapping = MappingInference.infer(from: source, to: destination)
        let details = mapping.changes.map { "\($0.rule): \($0.detail)" }
        #expect(mapping.outcome == outcome, "\(details)")
        #expect(mapping.changes.contains { $0.rule == c.rule.id } == fires, "\(details)")
    }

    @Test func everyRuleHasExamplesAndAUniqueId() {
        #expect(Set(InferenceRules.all.map(\.id)).count == InferenceRules.all.count)
        for rule in InferenceRules.all {
            #expect(!rule.examples.isEmpty, "\(rule.id)")
            #expect(rule.examples.contains { $0.expectedCount > 0 }, "\(rule.id) has no example that fires it")
        }
    }

    /// Rules whose outcome is unverified are reported at warning level or above, never silently.
    @Test func unverifiedRulesWarn() {
        for rule in InferenceRules.all where rule.basis == .unverified {
            let severity = rule.code?.defaultSeverity
            #expect(severity == .warning || severity == .error, "\(rule.id)")
        }
    }

    /// A property made transient is located at the destination's transient declaration (the
    /// source's own line would point elsewhere in the destination file).
    @Test func becomingTransientPointsAtTheTransientProperty() throws {
        let source = try #require(Self.model("""
            <entity name="Note">
            <attribute name="a" optional="YES" attributeType="String"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            """, version: "V1"))
        let destination = try #require(Self.model("""
            <entity name="Note"><attribute name="title" optional="YES" transient="YES" attributeType="String"/>
            <attribute name="a" optional="YES" attributeType="String"/></entity>
            """, version: "V2"))
        let mapping = MappingInference.infer(from: source, to: destination, sourceFile: "V1/contents", destinationFile: "V2/contents")
        let change = try #require(mapping.changes.first { $0.rule == InferenceRules.persistentTransient.id })
        #expect(change.location == SourceLocation(file: "V2/contents", line: 3, column: 21))
    }
}
