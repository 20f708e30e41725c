@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// A terse way to write small models in tests.
enum P {
    case a(String, AttributeType, optional: Bool = true, default: String? = nil, rid: String? = nil, transient: Bool = false, hash: String? = nil)
    case r(String, to: String, many: Bool = false, ordered: Bool = false, optional: Bool = true, inverse: String? = nil, rid: String? = nil, rule: DeletionRule = .nullify)
}

func E(_ name: String, parent: String? = nil, abstract: Bool = false, rid: String? = nil, hash: String? = nil, unique: [[String]] = [], _ properties: [P] = []) -> Entity {
    var entity = Entity(name: name, parentEntity: parent, isAbstract: abstract, renamingIdentifier: rid, versionHashModifier: hash,
                        uniquenessConstraints: unique)
    for property in properties {
        switch property {
        case let .a(name, type, optional, value, rid, transient, hash):
            entity.attributes.append(Attribute(name: name, type: type, isOptional: optional, isTransient: transient,
                                               defaultValueString: value, renamingIdentifier: rid, versionHashModifier: hash))
        case let .r(name, destination, many, ordered, optional, inverse, rid, rule):
            entity.relationships.append(Relationship(name: name, destinationEntity: destination, inverseName: inverse,
                                                     inverseEntity: inverse == nil ? nil : destination, isToMany: many, isOrdered: ordered,
                                                     isOptional: optional, maxCount: many ? 0 : 1, deletionRule: rule, renamingIdentifier: rid))
        }
    }
    return entity
}

func M(_ entities: Entity...) -> ObjectModel { ObjectModel(entities: entities) }
