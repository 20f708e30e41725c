import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing

/// The entity-level memo compares a root entity with the last one of its name field by field
/// (`DigestMemo.sameRootInputs`) instead of building its key (`DigestMemo.key(root:into:)`).
/// Those are two spellings of one list of hash inputs: for every single-field change, both must
/// agree, and a version hashed after its neighbour with a shared memo must hash as it does alone.
struct EntityMemoTests {
    static let base = """
        <entity name="Note" versionHashModifier="m1" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="note" inverseEntity="Tag"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Folder" syncable="YES">
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Tag" syncable="YES">
            <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
        </entity>
        """

    struct Change: Sendable, CustomTestStringConvertible {
        var what: String
        var from: String
        var to: String
        var testDescription: String { what }
    }

    /// One edit each; the first few move no hash input of `Note` (the memo may reuse its hash).
    static let changes: [Change] = [
        Change(what: "nothing", from: "", to: ""),
        Change(what: "a default value (not hashed)", from: #"defaultValueString="0""#, to: #"defaultValueString="1""#),
        Change(what: "a delete rule (not hashed)", from: #"name="folder" optional="YES" maxCount="1" deletionRule="Nullify""#,
               to: #"name="folder" optional="YES" maxCount="1" deletionRule="Cascade""#),
        Change(what: "entity modifier", from: #"versionHashModifier="m1""#, to: #"versionHashModifier="m2""#),
        Change(what: "abstract", from: #"<entity name="Note" "#, to: #"<entity name="Note" isAbstract="YES" "#),
        Change(what: "uniqueness constraint", from: #"<constraint value="title"/>"#, to: #"<constraint value="count"/>"#),
        Change(what: "attribute optional", from: #"name="title" optional="YES""#, to: #"name="title""#),
        Change(what: "attribute type", from: #"attributeType="String""#, to: #"attributeType="URI""#),
        Change(what: "attribute name", from: #"name="title" "#, to: #"name="heading" "#),
        Change(what: "attribute transient", from: #"name="title" optional="YES""#, to: #"name="title" optional="YES" transient="YES""#),
        Change(what: "external storage", from: #" allowsExternalBinaryDataStorage="YES""#, to: ""),
        Change(what: "preserve after deletion", from: #"name="title" optional="YES""#,
               to: #"name="title" optional="YES" preserveAfterDeletion="YES""#),
        Change(what: "attribute modifier", from: #"name="title" optional="YES""#, to: #"name="title" optional="YES" versionHashModifier="a""#),
        Change(what: "relationship optional", from: #"name="folder" optional="YES""#, to: #"name="folder""#),
        Change(what: "relationship ordered", from: #"name="tags" optional="YES" toMany="YES""#, to: #"name="tags" optional="YES" toMany="YES" ordered="YES""#),
        Change(what: "relationship max count", from: #"name="tags" optional="YES" toMany="YES""#, to: #"name="tags" optional="YES" toMany="YES" maxCount="5""#),
        Change(what: "relationship min count", from: #"name="tags" optional="YES" toMany="YES""#, to: #"name="tags" optional="YES" toMany="YES" minCount="1""#),
        Change(what: "relationship inverse", from: #"inverseName="notes" inverseEntity="Folder""#, to: ""),
        Change(what: "relationship modifier", from: #"name="folder" optional="YES""#, to: #"name="folder" optional="YES" versionHashModifier="r""#),
    ]

    static func note(_ body: String) throws -> (model: ObjectModel, note: ResolvedEntity) {
        let parsed = ModelTestSupport.parse(ModelTestSupport.model(body))
        let model = try #require(parsed.model, "\(parsed.diagnostics)")
        let note = try #require(model.resolved().entities.first { $0.entity.name == "Note" })
        return (model, note)
    }

    @Test(arguments: changes)
    func memoAgreesWithTheKey(_ change: Change) throws {
        let changed = change.from.isEmpty ? Self.base : Self.base.replacingOccurrences(of: change.from, with: change.to)
        #expect(change.from.isEmpty || changed != Self.base, "the edit did not apply")
        let (baseModel, baseNote) = try Self.note(Self.base)
        let (changedModel, changedNote) = try Self.note(changed)
        var baseKey: [UInt8] = [], changedKey: [UInt8] = []
        #expect(DigestMemo.key(root: baseNote, into: &baseKey))
        #expect(DigestMemo.key(root: changedNote, into: &changedKey))
        #expect(DigestMemo.sameRootInputs(baseNote, changedNote) == (baseKey == changedKey))

        // Hashed after its neighbour with one memo, the changed version hashes as it does alone.
        let memo = DigestMemo()
        _ = try ModelHasher.hash(baseModel, withProperties: false, memo: memo).get()
        let shared = try ModelHasher.hash(changedModel, withProperties: false, memo: memo).get()
        let alone = try ModelHasher.hash(changedModel, withProperties: false, memo: nil).get()
        #expect(shared == alone)
    }

    /// The table is not vacuous: most edits move `Note`'s hash, the first three do not.
    @Test func mostChangesMoveTheHash() throws {
        let baseHash = try #require(try Self.hash(Self.base).entities["Note"])
        var moved: [String] = []
        for change in Self.changes where !change.from.isEmpty {
            let hash = try Self.hash(Self.base.replacingOccurrences(of: change.from, with: change.to)).entities["Note"]
            if hash != baseHash { moved.append(change.what) }
        }
        #expect(moved == Self.changes.dropFirst(3).map(\.what))
    }

    static func hash(_ body: String) throws -> ModelHashes {
        try ModelHasher.hash(try Self.note(body).model, withProperties: false).get()
    }
}
