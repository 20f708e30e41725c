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

    static let transformable = #"<entity name="Note"><attribute name="data" optional="YES" attributeType="Transformable" valueTransformerName="A"/></entity>"#

    /// What a migration reads from its source model (renaming identifiers: the builder's keys)
    /// makes the undefined choice between the two an error.
    @Test("differences the hash ignores but migration reads make it an error", arguments: [
        [HashIdenticalVersionsTests.note, #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" elementID="heading"/></entity>"#],
        [HashIdenticalVersionsTests.note, #"<entity name="Note" elementID="Memo"><attribute name="title" optional="YES" attributeType="String"/></entity>"#],
    ])
    func unhashedDifferenceIsAnError(_ bodies: [String]) {
        let findings = Self.findings(bodies)
        #expect(findings.count == 1)
        #expect(findings.first?.severity == .error, "\(findings.map(\.message))")
    }

    /// A transformer is read by the in-memory path only: an error when a step from either version
    /// runs in memory (a mapping model), else a warning that says so.
    @Test func transformerMattersInMemoryOnly() {
        let bodies = [Self.transformable, #"<entity name="Note"><attribute name="data" optional="YES" attributeType="Transformable" valueTransformerName="B"/></entity>"#]
        let versions = Self.versions(bodies)
        var hashes: [String: VersionHashes] = [:]
        for version in versions { hashes[version.name] = VersionHashes(version) }
        let inPlace = HashIdenticalVersionsCheck.findings(versions, hashes: hashes)
        #expect(inPlace.map(\.severity) == [.warning])
        #expect(inPlace.first?.message.hasSuffix("'Note.data' value transformer 'A' → 'B': only a migration that runs in memory (with a mapping model) decodes values with it, and no step from these versions does") == true,
                "\(inPlace.map(\.message))")
        #expect(HashIdenticalVersionsCheck.findings(versions, hashes: hashes, inMemory: ["V2"]).map(\.severity) == [.error])
    }

    /// Fields no migration reads from its source model (defaults fill from the destination; class
    /// names are stripped; validation is skipped) leave a warning that says what the user sees.
    @Test("differences the hash ignores and migration ignores too stay a warning", arguments: [
        (#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" defaultValueString="Untitled"/></entity>"#,
         "'Note.title' default none → 'Untitled': a new default applies to new objects only, existing rows keep their values"),
        (#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" indexed="YES"/></entity>"#,
         "'Note.title' becomes indexed: whether a store's in-place migration reads this from its source model is unverified"),
        (#"<entity name="Note" representedClassName="NoteMO"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
         "(no migration runs between them)"),
        (#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" maxValueString="9"/></entity>"#,
         "(no migration runs between them)"),
    ])
    func ignoredDifferenceIsAWarning(_ body: String, _ says: String) {
        let findings = Self.findings([Self.note, body])
        #expect(findings.map(\.severity) == [.warning])
        #expect(findings.first?.message.hasSuffix(says) == true, "\(findings.map(\.message))")
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
