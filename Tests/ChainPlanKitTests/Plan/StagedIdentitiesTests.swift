import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// The staged plan's checksums come from the hashes the step classifier already computed
/// (`StageSynthesis.computesIdentities`), and equal those of hashing the bundle on its own.
@Suite struct StagedIdentitiesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["Chains/grocery-dude/chain.json", "Chains/notas/chain.json"])
    func computedFromTheClassifiersHashes(_ spec: String) throws {
        let url = Self.root.appendingPathComponent(spec)
        let computed = ChainPlanner().stagePlan(inputAt: url, identities: { _ in nil }, computingIdentities: true)
        var bundle: ModelBundle?
        let separately = ChainPlanner().stagePlan(inputAt: url, identities: { read in
            bundle = read
            return VersionIdentities(computedFrom: read)
        })
        let plan = try #require(computed.plan)
        let expected = try #require(separately.plan)
        let read = try #require(bundle)
        #expect(plan == expected)
        #expect(computed.identities == VersionIdentities(computedFrom: read))
        // Every verified version has its Core Data checksum (44 base64 characters) in the plan.
        let checksums = read.versionNames.compactMap { plan.checksum(of: $0) }
        #expect(!checksums.isEmpty)
        #expect(checksums.allSatisfy { $0.count == 44 })
        // Without computing, a plan has no checksums at all.
        let none = try #require(ChainPlanner().stagePlan(inputAt: url, identities: { _ in nil }).plan)
        #expect(read.versionNames.allSatisfy { none.checksum(of: $0) == nil })
        #expect(none.checksumSource == nil)
    }

    /// The classifier's hashes are the ones used: identities from them equal the bundle's own.
    @Test func identitiesFromClassifierHashes() throws {
        let url = Self.root.appendingPathComponent("Chains/grocery-dude/Model.xcdatamodeld")
        let read = try #require(ModelBundleReader().read(bundleAt: url, displayPath: "Model.xcdatamodeld").bundle)
        let classifier = StepClassifier(bundle: read)
        let synthesis = StageSynthesis(bundle: read, order: read.versionNames, location: SourceLocation(file: "chain.json"))
        #expect(synthesis.computedIdentities(classifier) == VersionIdentities(computedFrom: read))
        #expect(synthesis.computedIdentities(classifier).byVersion.count == read.versionNames.count)
    }
}
