import ChainPlanTestSupport
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

/// CP123: versions whose hashes are all equal (§2).
@Suite("Hash-identical versions")
struct HashIdenticalVersionsTests {
    static func versions(_ bodies: [String]) -> [ModelVersion] {
        bodies.enumerated().map { index, body in
            ModelVersion(name: "V\(index + 1)", path: "V\(index + 1).xcdatamodel/contents",
                         model: ModelTestSupport.parse(ModelTestSupport.model(body)).model)
        }
    }

    static func findings(_ bodies: [String]) -> [Diagnostic] {
        let versions = versions(bodies)
        var hashes: [String: VersionHashes] = [:]
        for version in versions { hashes[version.name] = VersionHashes(version) }
        return HashIdenticalVersionsCheck.findings(versions, hashes: hashes)
    }

    static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#

    @Test func identicalPairIsOneWarning() {
        let findings = Self.findings([Self.note, Self.note])
        #expect(findings.map(\.code) == [.hashIdenticalVersions])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.versions == ["V1", "V2"])
    }

    /// Each later version is paired with the first of its group: bounded on hostile histories.
    @Test func threeIdenticalVersionsAreTwoFindings() {
        #expect(Self.findings([Self.note, Self.note, Self.note]).map(\.versions) == [["V1", "V2"], ["V1", "V3"]])
    }

    @Test("differences the hash ignores but migration reads make it an error", arguments: [
        #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" elementID="heading"/></entity>"#,
        #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" defaultValueString="Untitled"/></entity>"#,
        #"<entity name="Note" elementID="Memo"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
    ])
    func unhashedDifferenceIsAnError(_ body: String) {
        let findings = Self.findings([Self.note, body])
        #expect(findings.count == 1)
        #expect(findings.first?.severity == .error, "\(findings.map(\.message))")
    }

    @Test("differences the hash ignores and migration ignores too stay a warning", arguments: [
        #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" indexed="YES"/></entity>"#,
        #"<entity name="Note" representedClassName="NoteMO"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
    ])
    func ignoredDifferenceIsAWarning(_ body: String) {
        #expect(Self.findings([Self.note, body]).map(\.severity) == [.warning])
    }

    @Test func hashedChangeIsNoFinding() {
        let preserved = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/></entity>"#
        #expect(Self.findings([Self.note, preserved]).isEmpty)
    }
}

extension CorpusTests {
@Suite("Hash-identical versions in Wire")
struct HashIdenticalWireTests {
    /// Wire's 6 groups of hash-identical versions, e.g. 2.98.0 = 2.100.0 and 2.80.0 = 2.81.0.
    @Test func wireGroups() throws {
        let versions = try StoreCorpus.versions(StoreCorpus.wireBundle)
        var hashes: [String: VersionHashes] = [:]
        for version in versions { hashes[version.name] = VersionHashes(version) }
        var groups: [[String: Data]: [String]] = [:]
        for version in versions { if let key = hashes[version.name]?.hashes?.entities { groups[key, default: []].append(version.name) } }
        let identical = groups.values.filter { $0.count > 1 }.map { $0.sorted() }
        #expect(identical.count == 6, "\(identical)")
        #expect(identical.contains { $0.contains("zmessaging2.98.0") && $0.contains("zmessaging2.100.0") })
        #expect(identical.contains { $0.contains("zmessaging2.80.0") && $0.contains("zmessaging2.81.0") })
        let findings = HashIdenticalVersionsCheck.findings(versions, hashes: hashes)
        #expect(findings.count == identical.map { $0.count - 1 }.reduce(0, +))
        let renamed = findings.first { Set($0.versions) == ["zmessaging2.46.0", "zmessaging2.47.0"] }
        #expect(renamed?.severity == .error, "\(renamed?.message ?? "no finding for 2.46.0/2.47.0")")
    }
}
}
