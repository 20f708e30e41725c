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

/// One edit of the base model and what it must do to the signature.
enum SignatureEdit: String, CaseIterable, Sendable, CustomTestStringConvertible {
    // Hash-relevant (reference core-data.md §2.3).
    case entityRenamed, entityParent, entityAbstract, entityVersionHashModifier
    case attributeRenamed, attributeAdded, attributeOptional, attributeTransient, attributeVersionHashModifier, attributeType
    case relationshipRemoved, relationshipDestination, relationshipMinCount, relationshipMaxCount
    case relationshipDeletionRule, relationshipInverse, relationshipToMany, relationshipOptional, relationshipTransient
    case relationshipVersionHashModifier, propertyKindChanged
    // Renaming identifiers only.
    case entityRenamingIdentifier, attributeRenamingIdentifier, relationshipRenamingIdentifier
    // Not hash-relevant.
    case className, entityUserInfo, attributeUserInfo, defaultValue, defaultDate, indexed, fetchIndex
    case uniquenessConstraint, compoundIndex, minMaxValue, regularExpression, externalStorage, valueTransformer
    case customClass, scalarType, ordered, codeGeneration, lineNumbers, attributeOrder, entityOrder
    case modelVersionIdentifier, configuration, fetchRequest, fetchedProperty, emptyVersionHashModifier

    var testDescription: String { rawValue }

    static let base = ObjectModel(entities: [
        Entity(name: "Animal", isAbstract: true, representedClassName: "Animal",
               attributes: [
                   Attribute(name: "name", type: .string),
                   Attribute(name: "age", type: .integer16, isOptional: true, defaultValueString: "0"),
               ],
               relationships: [
                   Relationship(name: "owner", destinationEntity: "Person", inverseName: "pets", inverseEntity: "Person",
                                isOptional: true, maxCount: 1),
               ]),
        Entity(name: "Dog", parentEntity: "Animal", attributes: [Attribute(name: "barks", type: .boolean)]),
        Entity(name: "Person", attributes: [Attribute(name: "fullName", type: .string, isOptional: true)],
               relationships: [
                   Relationship(name: "pets", destinationEntity: "Animal", inverseName: "owner", inverseEntity: "Animal",
                                isToMany: true, isOptional: true, deletionRule: .cascade),
               ]),
    ], versionIdentifier: "1")

    enum Effect: Equatable {
        /// The hash-relevant signature changes, with exactly these differences.
        case hash([String])
        /// Only the renaming identifiers change, with these differences.
        case renaming([String])
        case none
    }

    var effect: Effect {
        switch self {
        case .entityRenamed: .hash(["entity 'Human' added", "entity 'Person' removed"])
        case .entityParent: .hash(["entity 'Dog': parent 'Animal' → none"])
        case .entityAbstract: .hash(["entity 'Animal': abstract true → false"])
        case .entityVersionHashModifier: .hash(["entity 'Person': version hash modifier none → 'v2'"])
        case .attributeRenamed: .hash(["entity 'Animal': attribute 'name' removed", "entity 'Animal': attribute 'title' added"])
        case .attributeAdded: .hash(["entity 'Dog': attribute 'breed' added"])
        case .attributeOptional: .hash(["entity 'Animal': attribute 'name' optional false → true"])
        case .attributeTransient: .hash(["entity 'Animal': attribute 'name' transient false → true"])
        case .attributeVersionHashModifier: .hash(["entity 'Animal': attribute 'age' version hash modifier none → 'x'"])
        case .attributeType: .hash(["entity 'Animal': attribute 'age' type Integer 16 → Integer 64"])
        case .relationshipRemoved: .hash(["entity 'Person': relationship 'pets' removed"])
        case .relationshipDestination: .hash(["entity 'Animal': relationship 'owner' destination 'Person' → 'Dog'"])
        case .relationshipMinCount: .hash(["entity 'Person': relationship 'pets' minimum count 0 → 1"])
        case .relationshipMaxCount: .hash(["entity 'Person': relationship 'pets' maximum count 0 → 5"])
        case .relationshipDeletionRule: .hash(["entity 'Person': relationship 'pets' deletion rule Cascade → Deny"])
        case .relationshipInverse: .hash(["entity 'Animal': relationship 'owner' inverse 'pets' → none"])
        case .relationshipToMany: .hash(["entity 'Animal': relationship 'owner' to-many false → true"])
        case .relationshipOptional: .hash(["entity 'Animal': relationship 'owner' optional true → false"])
        case .relationshipTransient: .hash(["entity 'Person': relationship 'pets' transient false → true"])
        case .relationshipVersionHashModifier: .hash(["entity 'Person': relationship 'pets' version hash modifier none → 'r'"])
        case .propertyKindChanged: .hash(["entity 'Dog': property 'barks' changes from attribute to relationship"])
        case .entityRenamingIdentifier: .renaming(["entity 'Person': renaming identifier none → 'Human'"])
        case .attributeRenamingIdentifier: .renaming(["entity 'Animal': property 'name' renaming identifier none → 'title'"])
        case .relationshipRenamingIdentifier: .renaming(["entity 'Person': property 'pets' renaming identifier none → 'animals'"])
        default: .none
        }
    }

    func apply(_ model: inout ObjectModel) {
        func edit(_ entity: String, _ change: (inout Entity) -> Void) {
            if let index = model.entities.firstIndex(where: { $0.name == entity }) { change(&model.entities[index]) }
        }
        func attribute(_ entity: String, _ name: String, _ change: @escaping (inout Attribute) -> Void) {
            edit(entity) { if let index = $0.attributes.firstIndex(where: { $0.name == name }) { change(&$0.attributes[index]) } }
        }
        func relationship(_ entity: String, _ name: String, _ change: @escaping (inout Relationship) -> Void) {
            edit(entity) { if let index = $0.relationships.firstIndex(where: { $0.name == name }) { change(&$0.relationships[index]) } }
        }
        switch self {
        case .entityRenamed: edit("Person") { $0.name = "Human" }
        case .entityParent: edit("Dog") { $0.parentEntity = nil }
        case .entityAbstract: edit("Animal") { $0.isAbstract = false }
        case .entityVersionHashModifier: edit("Person") { $0.versionHashModifier = "v2" }
        case .attributeRenamed: attribute("Animal", "name") { $0.name = "title" }
        case .attributeAdded: edit("Dog") { $0.attributes.append(Attribute(name: "breed", type: .string, isOptional: true)) }
        case .attributeOptional: attribute("Animal", "name") { $0.isOptional = true }
        case .attributeTransient: attribute("Animal", "name") { $0.isTransient = true }
        case .attributeVersionHashModifier: attribute("Animal", "age") { $0.versionHashModifier = "x" }
        case .attributeType: attribute("Animal", "age") { $0.type = .integer64 }
        case .relationshipRemoved: edit("Person") { $0.relationships = [] }
        case .relationshipDestination: relationship("Animal", "owner") { $0.destinationEntity = "Dog" }
        case .relationshipMinCount: relationship("Person", "pets") { $0.minCount = 1 }
        case .relationshipMaxCount: relationship("Person", "pets") { $0.maxCount = 5 }
        case .relationshipDeletionRule: relationship("Person", "pets") { $0.deletionRule = .deny }
        case .relationshipInverse: relationship("Animal", "owner") { $0.inverseName = nil; $0.inverseEntity = nil }
        case .relationshipToMany: relationship("Animal", "owner") { $0.isToMany = true }
        case .relationshipOptional: relationship("Animal", "owner") { $0.isOptional = false }
        case .relationshipTransient: relationship("Person", "pets") { $0.isTransient = true }
        case .relationshipVersionHashModifier: relationship("Person", "pets") { $0.versionHashModifier = "r" }
        case .propertyKindChanged:
            edit("Dog") {
                $0.attributes = []
                $0.relationships = [Relationship(name: "barks", destinationEntity: "Person", isOptional: false)]
            }
        case .entityRenamingIdentifier: edit("Person") { $0.renamingIdentifier = "Human" }
        case .attributeRenamingIdentifier: attribute("Animal", "name") { $0.renamingIdentifier = "title" }
        case .relationshipRenamingIdentifier: relationship("Person", "pets") { $0.renamingIdentifier = "animals" }
        case .className: edit("Animal") { $0.representedClassName = "AnimalMO" }
        case .entityUserInfo: edit("Animal") { $0.userInfo = [UserInfoEntry(key: "k", value: "v")] }
        case .attributeUserInfo: attribute("Animal", "name") { $0.userInfo = [UserInfoEntry(key: "k", value: "v")] }
        case .defaultValue: attribute("Animal", "age") { $0.defaultValueString = "7" }
        case .defaultDate: attribute("Animal", "name") { $0.defaultDateTimeInterval = "0" }
        case .indexed: attribute("Animal", "name") { $0.isIndexed = true }
        case .fetchIndex:
            edit("Animal") { $0.fetchIndexes = [FetchIndex(name: "byName", elements: [FetchIndex.Element(property: "name")])] }
        case .uniquenessConstraint: edit("Animal") { $0.uniquenessConstraints = [["name"]] }
        case .compoundIndex: edit("Animal") { $0.compoundIndexes = [["name", "age"]] }
        case .minMaxValue: attribute("Animal", "age") { $0.minValueString = "0"; $0.maxValueString = "30" }
        case .regularExpression: attribute("Animal", "name") { $0.regularExpressionString = "[a-z]+" }
        case .externalStorage: attribute("Animal", "name") { $0.allowsExternalBinaryDataStorage = true }
        case .valueTransformer: attribute("Animal", "name") { $0.valueTransformerName = "NSSecureUnarchiveFromData" }
        case .customClass: attribute("Animal", "name") { $0.customClassName = "NSString" }
        case .scalarType: attribute("Animal", "age") { $0.usesScalarValueType = true }
        case .ordered: relationship("Person", "pets") { $0.isOrdered = true }
        case .codeGeneration: edit("Animal") { $0.codeGenerationType = "class" }
        case .lineNumbers: edit("Animal") { $0.line = 12 }
        case .attributeOrder: edit("Animal") { $0.attributes.reverse() }
        case .entityOrder: model.entities.reverse()
        case .modelVersionIdentifier: model.versionIdentifier = "2"
        case .configuration: model.configurations = [Configuration(name: "Cloud", memberEntities: ["Animal"])]
        case .fetchRequest: model.fetchRequests = [FetchRequestTemplate(name: "all", entity: "Animal")]
        case .fetchedProperty: edit("Person") { $0.fetchedProperties = [FetchedProperty(name: "dogs", entity: "Dog")] }
        case .emptyVersionHashModifier: edit("Person") { $0.versionHashModifier = "" }
        }
    }
}

@Suite("MigrationSignature")
struct MigrationSignatureTests {
    @Test("each edit changes exactly the signature parts it should", arguments: SignatureEdit.allCases)
    func edit(_ edit: SignatureEdit) {
        var edited = SignatureEdit.base
        edit.apply(&edited)
        #expect(edited != SignatureEdit.base, "the edit must change the model itself")
        let before = MigrationSignature(SignatureEdit.base)
        let after = MigrationSignature(edited)
        switch edit.effect {
        case .hash(let lines):
            #expect(before.entities != after.entities)
            #expect(before != after)
            #expect(before.differences(to: after) == lines)
            #expect(before.differences(to: after, includingRenamingIdentifiers: false) == lines)
            #expect(before.canonicalText != after.canonicalText)
        case .renaming(let lines):
            #expect(before.entities == after.entities)
            #expect(before.withoutRenamingIdentifiers == after.withoutRenamingIdentifiers)
            #expect(before != after)
            #expect(before.differences(to: after) == lines)
            #expect(before.differences(to: after, includingRenamingIdentifiers: false).isEmpty)
            #expect(before.canonicalText != after.canonicalText)
        case .none:
            #expect(before == after)
            #expect(before.differences(to: after).isEmpty)
            #expect(before.canonicalText == after.canonicalText)
        }
    }

    @Test("an entity is hash-equivalent only when its whole lineage is")
    func lineage() {
        var edited = SignatureEdit.base
        SignatureEdit.attributeType.apply(&edited) // Animal.age changes
        let before = MigrationSignature(SignatureEdit.base)
        let after = MigrationSignature(edited)
        #expect(before.lineage(of: "Dog").map(\.name) == ["Dog", "Animal"])
        #expect(before.entities["Dog"] == after.entities["Dog"])
        #expect(!before.isHashEquivalent(entity: "Dog", in: after))
        #expect(!before.isHashEquivalent(entity: "Animal", in: after))
        #expect(before.isHashEquivalent(entity: "Person", in: after))
        #expect(!before.isHashEquivalent(entity: "Nope", in: after))
    }

    @Test("lineage stops at a parent cycle")
    func lineageCycle() {
        let model = ObjectModel(entities: [Entity(name: "A", parentEntity: "B"), Entity(name: "B", parentEntity: "A")])
        #expect(MigrationSignature(model).lineage(of: "A").map(\.name) == ["A", "B"])
    }

    @Test("masking hides unrecorded fields on both sides")
    func masking() {
        var edited = SignatureEdit.base
        SignatureEdit.relationshipDeletionRule.apply(&edited)
        let before = MigrationSignature(SignatureEdit.base)
        let after = MigrationSignature(edited)
        #expect(before != after)
        #expect(before.masking([.relationshipDeletionRule]) == after.masking([.relationshipDeletionRule]))
        #expect(before.masking([.attributeType]) != after.masking([.attributeType]))
        #expect(before.masking([]) == before)
    }

    @Test("canonical text is sorted and quotes names")
    func canonicalText() {
        let model = ObjectModel(entities: [
            Entity(name: "B\"x\n", attributes: [Attribute(name: "z", type: .string), Attribute(name: "a", type: .date, isOptional: true)]),
            Entity(name: "A", renamingIdentifier: "Old"),
        ])
        #expect(MigrationSignature(model).canonicalText == """
        entity "A" parent=- abstract=0 vhm=- id="Old"
        entity "B\\"x\\n" parent=- abstract=0 vhm=- id=-
          attribute "a" optional=1 transient=0 vhm=- type="Date" id=-
          attribute "z" optional=0 transient=0 vhm=- type="String" id=-
        """)
    }
}
