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

/// `stage --momd`: a compiled checksum that differs from the one the model files hash to is a
/// finding with both values, and the plan keeps the compiled one (what the app ships).
@Suite struct CompiledChecksumCheckTests {
    @Test func differingCompiledChecksumIsReportedAndUsed() throws {
        let url = StagedIdentitiesTests.root.appendingPathComponent("Chains/notas/chain.json")
        var version = ""
        let outcome = ChainPlanner().stagePlan(inputAt: url, identities: { bundle in
            var compiled = VersionIdentities(computedFrom: bundle)
            compiled.source = "Notas.momd/VersionInfo.plist"
            version = bundle.versionNames.first { compiled.byVersion[$0] != nil } ?? ""
            compiled.byVersion[version]?.checksum = "compiled-checksum"
            return compiled
        }, computingIdentities: true)
        let plan = try #require(outcome.plan)
        let finding = try #require(plan.findings.first { $0.code == .staleChecksum })
        #expect(finding.versions == [version])
        #expect(finding.message.contains("'compiled-checksum'") && finding.message.contains("hashes to '"))
        #expect(plan.checksum(of: version) == "compiled-checksum")
        // Equal checksums: no finding.
        let clean = try #require(ChainPlanner().stagePlan(inputAt: url, identities: { VersionIdentities(computedFrom: $0) }, computingIdentities: true).plan)
        #expect(!clean.findings.contains { $0.code == .staleChecksum })
    }
}
