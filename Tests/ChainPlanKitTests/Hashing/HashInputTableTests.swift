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

/// One edit of the base model and what it must do to Core Data's entity version hashes.
enum HashInputEdit: String, CaseIterable, Sendable, CustomTestStringConvertible {
    // Hash inputs (reference core-data-internals.md §1.2–§1.5).
    case entityRenamed, entityParent, entityAbstract, entityVersionHashModifier
    case attributeRenamed, attributeAdded, attributeOptional, attributeTransient, attributeVersionHashModifier, attributeType
    case relationshipRemoved, relationshipDestination, relationshipMinCount, relationshipMaxCount
    case relationshipInverse, relationshipToMany, relationshipOptional, relationshipTransient
    case relationshipVersionHashModifier, propertyKindChanged, uniquenessConstraint, externalStorage, ordered
    // Not hash inputs: renaming identifiers, delete rules, and the rest.
    case relationshipDeletionRule, entityRenamingIdentifier, attributeRenamingIdentifier, relationshipRenamingIdentifier
    case className, entityUserInfo, attributeUserInfo, defaultValue, defaultDate, indexed, fetchIndex
    case compoundIndex, minMaxValue, regularExpression, valueTransformer
    case customClass, scalarType, codeGeneration, lineNumbers, attributeOrder, entityOrder
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

    /// One reason `HashDifference` must give for the edit (nil: the edit moves no hash; the
    /// to-many flag moves one only through the default maxCount, so it is left to the engine).
    var reason: String? {
        switch self {
        case .entityRenamed: "'Human': added"
        case .entityParent: "'Dog': parent: 'Animal' → none"
        case .entityAbstract: "'Animal': abstract: YES → NO"
        case .entityVersionHashModifier: "'Person': versionHashModifier: '' → 'v2'"
        case .attributeRenamed: "'Animal.name' (removed)"
        case .attributeAdded: "'Dog.breed' (added)"
        case .attributeOptional: "'Animal.name' (optional: NO → YES)"
        case .attributeTransient: "'Animal.name' (now transient)"
        case .attributeVersionHashModifier: "'Animal.age' (versionHashModifier: '' → 'x')"
        case .attributeType: "'Animal.age' (type: Integer 16 → Integer 64)"
        case .relationshipRemoved: "'Person.pets' (removed)"
        case .relationshipDestination: "'Animal.owner' (destination: 'Person' → 'Dog')"
        case .relationshipMinCount: "'Person.pets' (minCount: 0 → 1)"
        case .relationshipMaxCount: "'Person.pets' (maxCount: 0 → 5)"
        case .relationshipInverse: "'Animal.owner' (inverse: 'pets' → none)"
        case .relationshipOptional: "'Animal.owner' (optional: YES → NO)"
        case .relationshipTransient: "'Person.pets' (now transient)"
        case .relationshipVersionHashModifier: "'Person.pets' (versionHashModifier: '' → 'r')"
        case .propertyKindChanged: "'Dog.barks' (changed between attribute and relationship)"
        case .uniquenessConstraint: "'Animal': uniqueness constraints: [] → [name]"
        case .externalStorage: "'Animal.name' (allowsExternalBinaryDataStorage: NO → YES)"
        case .ordered: "'Person.pets' (ordered: NO → YES)"
        default: nil
        }
    }

    /// True for the edits that move no entity hash.
    var movesNoHash: Bool { reason == nil && self != .relationshipToMany }

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
        case .relationshipMaxCount: relationship("Person", "pets") { $0.maxCount = 5; $0.hasWrittenMaxCount = true }
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

/// The hash engine's input table (`HashInputTable`) is the engine's: an entity's hash changes
/// exactly when its inputs, or an ancestor's, change; `HashDifference` names the field from the
/// table, with values, and from a lock's digests, by name only.
@Suite struct HashInputTableTests {
    static func hashes(_ model: ObjectModel) -> [String: Data] { (try? ModelHasher.hash(model).get())?.entities ?? [:] }

    /// An entity's inputs and its ancestors' are all equal in both tables.
    static func lineageEqual(_ name: String, _ a: [String: EntityHashInputs], _ b: [String: EntityHashInputs]) -> Bool {
        var next: String? = name
        var seen: Set<String> = []
        while let current = next, seen.insert(current).inserted {
            guard let x = a[current], let y = b[current], x == y else { return false }
            next = x.parent
        }
        return true
    }

    @Test("the table moves exactly when the engine's hash does", arguments: HashInputEdit.allCases)
    func tableAgreesWithTheEngine(_ edit: HashInputEdit) throws {
        var edited = HashInputEdit.base
        edit.apply(&edited)
        #expect(edited != HashInputEdit.base, "the edit must change the model itself")
        let before = Self.hashes(HashInputEdit.base), after = Self.hashes(edited)
        #expect(!before.isEmpty && !after.isEmpty)
        let a = HashInputTable.inputs(of: HashInputEdit.base), b = HashInputTable.inputs(of: edited)
        for name in Set(before.keys).intersection(after.keys) {
            #expect((before[name] == after[name]) == Self.lineageEqual(name, a, b), "\(edit): '\(name)'")
        }
        if edit.movesNoHash {
            #expect(before == after)
            #expect(a == b)
        } else if edit != .relationshipToMany {
            #expect(before != after)
        }
        let changes = HashDifference.changes(from: HashInputEdit.base, before, to: edited, after)
        if let reason = edit.reason {
            let shown = changes.map(\.description).joined(separator: "; ")
            #expect(shown.contains(reason), "\(shown)")
        } else if edit.movesNoHash {
            #expect(changes.isEmpty)
        }
    }

    /// The lock's digests name the same fields as the values do, without the values.
    @Test func digestsNameTheFieldsOnly() throws {
        var edited = HashInputEdit.base
        HashInputEdit.attributeType.apply(&edited)
        HashInputEdit.relationshipMinCount.apply(&edited)
        let before = Self.hashes(HashInputEdit.base), after = Self.hashes(edited)
        let digest = { (text: String) in ChainLock.digest(text) }
        let locked = HashInputTable.inputs(of: HashInputEdit.base).mapValues { $0.digested(digest) }
        let current = HashInputTable.inputs(of: edited).mapValues { $0.digested(digest) }
        let changes = HashDifference.changes(from: locked, before, to: current, after, showsValues: false).map(\.description)
        #expect(changes == ["'Animal': 'Animal.age' (type)", "'Dog': its parent 'Animal' changed; 'Dog.age' (type)", "'Person': 'Person.pets' (minCount)"])
        // Every digest is four hex digits, one per field of the table.
        let animal = try #require(locked["Animal"])
        #expect(animal.values.count == HashInputTable.entity.count)
        #expect(animal.properties["age"]?.values.count == HashInputTable.attribute.count)
        #expect(animal.properties["owner"]?.values.count == HashInputTable.relationship.count)
        #expect(animal.values.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) })
    }

    /// The fields the table names are the inputs §1.3–§1.5 lists, in the order output shows them.
    @Test func theTableListsTheReferenceInputs() {
        #expect(HashInputTable.entity.map(\.name) == ["abstract", "parent", "versionHashModifier", "uniqueness constraints"])
        #expect(HashInputTable.attribute.map(\.name) == ["optional", "type", "allowsExternalBinaryDataStorage", "preserveAfterDeletion",
                                                         "versionHashModifier", "derived", "derivationExpression", "composite"])
        #expect(HashInputTable.relationship.map(\.name) == ["optional", "destination", "inverse", "maxCount", "minCount", "ordered", "versionHashModifier"])
    }
}
