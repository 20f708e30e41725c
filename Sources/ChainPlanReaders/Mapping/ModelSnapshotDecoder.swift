import Foundation

/// Decodes the model snapshots Xcode's mapping editor embeds in `xcmapping.xml`
/// (`sourcemodeldata`/`destinationmodeldata`) into `ObjectModel`s.
///
/// Archive layout (observed in every snapshot of the corpus; reference `core-data.md` §4):
/// `$top.root` is an `XDPMModel`; its `_xd_rootPackage` (`XDModelPackage`) holds the
/// entities in `XDBucketForClassesstorage` (name → `XDPMEntity`). Each entity and property
/// keeps its Core Data settings in "stereotypes": `XDBucketForStereotypesstorage` maps a
/// stereotype name to an `XDUMLStereotypeImp` whose `XDBucketForOwnedAttributesstorage`
/// maps a key such as `XD_PSK_isAbstract` or `XD_PPSK_isOptional` to an
/// `XDUMLPropertyImp` whose `_default` is the value. Properties are `XDPMAttribute` /
/// `XDPMRelationship` objects in the entity's `XDBucketForOwnedAttributesstorage`; the
/// parent entity is the `_general` of the entity's first `XDUMLGeneralizationImp`.
/// Relationship destinations and inverses are references to the entity / relationship objects.
///
/// The walk has a fixed depth (it never follows references recursively), so reference
/// cycles cannot make it loop, and `KeyedArchive` bounds the number of dereferences.
enum ModelSnapshotDecoder {
    /// The decoded model and the signature fields the snapshot does not record.
    struct Snapshot: Sendable {
        var model: ObjectModel
        var unrecordedFields: Set<SignatureField>
    }

    static let maxEntities = 20_000
    static let maxPropertiesPerEntity = 20_000

    /// `NSAttributeType` raw values.
    static func attributeType(_ code: Int) -> AttributeType {
        switch code {
        case 0: .undefined
        case 100: .integer16
        case 200: .integer32
        case 300: .integer64
        case 400: .decimal
        case 500: .double
        case 600: .float
        case 700: .string
        case 800: .boolean
        case 900: .date
        case 1000: .binary
        case 1100: .uuid
        case 1200: .uri
        case 1800: .transformable
        case 2000: .objectID
        case 2100: .composite
        default: .other("NSAttributeType \(code)")
        }
    }

    /// `NSDeleteRule` raw values.
    static func deletionRule(_ code: Int) -> DeletionRule? {
        switch code {
        case 0: .noAction
        case 1: .nullify
        case 2: .cascade
        case 3: .deny
        default: nil
        }
    }

    static func decode(_ data: Data) throws(ArchiveError) -> Snapshot {
        let archive = try KeyedArchive(data: data)
        var walker = Walker(archive: archive)
        return try walker.decode()
    }

    private struct Walker {
        let archive: KeyedArchive
        var unrecorded: Set<SignatureField> = []

        init(archive: KeyedArchive) { self.archive = archive }

        mutating func decode() throws(ArchiveError) -> Snapshot {
            let root = try archive.object(.uid(archive.rootIndex), "the root object")
            guard try archive.isInstance(root, of: "XDPMModel") else {
                throw ArchiveError("its root object is not an XDPMModel")
            }
            let identifier = try archive.string(root["_modelVersionIdentifier"], "the model version identifier")
            guard let package = try archive.optionalObject(root["_xd_rootPackage"], "the root package") else {
                throw ArchiveError("it has no root package")
            }
            guard try archive.isInstance(package, of: "XDModelPackage") else {
                throw ArchiveError("its root package is not an XDModelPackage")
            }
            guard package["XDBucketForClassesstorage"] != nil else { throw ArchiveError("its root package has no entity table") }
            let classes = try archive.dictionaryEntries(package["XDBucketForClassesstorage"], "the entity table")
            guard classes.count <= ModelSnapshotDecoder.maxEntities else {
                throw ArchiveError("it declares \(classes.count) entities, over the limit of \(ModelSnapshotDecoder.maxEntities)")
            }
            var entities: [Entity] = []
            for (key, reference) in classes {
                let object = try archive.object(reference, "entity '\(key)'")
                guard try archive.isInstance(object, of: "XDPMEntity") else {
                    throw ArchiveError("entity '\(key)' is not an XDPMEntity")
                }
                entities.append(try entity(object, key: key))
            }
            entities.sort { $0.name < $1.name }
            let model = ObjectModel(entities: entities, versionIdentifier: identifier.flatMap { $0.isEmpty ? nil : $0 })
            return Snapshot(model: model, unrecordedFields: unrecorded)
        }

        /// The stereotype values of an element: key → `_default` (unresolved).
        func stereotypes(of element: [String: ArchiveValue], _ what: String) throws(ArchiveError) -> [String: ArchiveValue] {
            var values: [String: ArchiveValue] = [:]
            for (name, reference) in try archive.dictionaryEntries(element["XDBucketForStereotypesstorage"], "the stereotypes of \(what)") {
                let stereotype = try archive.object(reference, "stereotype '\(name)' of \(what)")
                for (key, propertyReference) in try archive.dictionaryEntries(
                    stereotype["XDBucketForOwnedAttributesstorage"], "stereotype '\(name)' of \(what)") {
                    let property = try archive.object(propertyReference, "'\(key)' of \(what)")
                    values[key] = property["_default"] ?? .null
                }
            }
            return values
        }

        /// The value of a stereotype key, recording `field` as unrecorded when the key is absent.
        mutating func recorded(_ values: [String: ArchiveValue], _ key: String, _ field: SignatureField?) -> ArchiveValue? {
            guard let value = values[key] else {
                if let field { unrecorded.insert(field) }
                return nil
            }
            return value
        }

        func name(ofReferenced value: ArchiveValue?, _ what: String) throws(ArchiveError) -> String? {
            guard let object = try archive.optionalObject(value, what) else { return nil }
            return try archive.string(object["_name"], "the name of \(what)")
        }

        func strings(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> [String] {
            var result: [String] = []
            for element in try archive.arrayElements(value, what) {
                if let text = try archive.string(element, "an element of \(what)") { result.append(text) }
            }
            return result
        }

        func userInfo(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> [UserInfoEntry] {
            var entries: [UserInfoEntry] = []
            for (key, element) in try archive.dictionaryEntries(value, what) {
                if case .string(let text) = try archive.resolve(element) { entries.append(UserInfoEntry(key: key, value: text)) }
            }
            return entries.sorted { ($0.key, $0.value) < ($1.key, $1.value) }
        }

        /// A default value written as a string, or (in older snapshots) as a number.
        func defaultValue(_ value: ArchiveValue?) throws(ArchiveError) -> String? {
            guard let value else { return nil }
            switch try archive.resolve(value) {
            case .string(let text): return text
            case .int(let number): return String(number)
            case .double(let number): return String(number)
            case .bool(let flag): return flag ? "YES" : "NO"
            default: return nil
            }
        }

        mutating func entity(_ object: [String: ArchiveValue], key: String) throws(ArchiveError) -> Entity {
            let name = try archive.string(object["_name"], "the name of entity '\(key)'") ?? key
            let what = "entity '\(name)'"
            let values = try stereotypes(of: object, what)
            var isAbstract = try archive.bool(recorded(values, "XD_PSK_isAbstract", nil), "'isAbstract' of \(what)")
            if isAbstract == nil {
                isAbstract = try archive.bool(object["_isAbstract"], "'_isAbstract' of \(what)")
                if object["_isAbstract"] == nil { unrecorded.insert(.entityAbstract) }
            }
            let renaming = try archive.string(recorded(values, "XD_PSK_elementID", .entityRenamingIdentifier), "the renaming identifier of \(what)")
            let modifier = try archive.string(recorded(values, "XD_PSK_versionHashModifier", .entityVersionHashModifier), "the version hash modifier of \(what)")
            let className = try archive.string(values["XD_PSK_entityClassName"], "the class name of \(what)")

            var parent: String?
            if object["XDBucketForGeneralizationsstorage"] == nil { unrecorded.insert(.entityParent) }
            if let first = try archive.arrayElements(object["XDBucketForGeneralizationsstorage"], "the generalizations of \(what)").first,
               let generalization = try archive.optionalObject(first, "the generalization of \(what)") {
                parent = try self.name(ofReferenced: generalization["_general"], "the parent of \(what)")
            }

            var uniqueness: [[String]] = []
            for element in try archive.arrayElements(values["XDPMUniquenessConstraints"], "the uniqueness constraints of \(what)") {
                uniqueness.append(try strings(element, "a uniqueness constraint of \(what)"))
            }

            let properties = try archive.dictionaryEntries(object["XDBucketForOwnedAttributesstorage"], "the properties of \(what)")
            guard properties.count <= ModelSnapshotDecoder.maxPropertiesPerEntity else {
                throw ArchiveError("\(what) declares \(properties.count) properties, over the limit")
            }
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for (propertyKey, reference) in properties {
                let property = try archive.object(reference, "property '\(propertyKey)' of \(what)")
                let classes = try archive.classNames(of: property)
                if classes.contains("XDPMAttribute") {
                    attributes.append(try attribute(property, key: propertyKey, entity: what))
                } else if classes.contains("XDPMRelationship") {
                    relationships.append(try relationship(property, key: propertyKey, entity: what))
                }
                // Other property kinds (fetched properties) carry nothing the signature uses.
            }
            attributes.sort { $0.name < $1.name }
            relationships.sort { $0.name < $1.name }
            return Entity(
                name: name, parentEntity: parent, isAbstract: isAbstract ?? false,
                renamingIdentifier: renaming.flatMap { $0.isEmpty ? nil : $0 },
                versionHashModifier: modifier.flatMap { $0.isEmpty ? nil : $0 },
                representedClassName: className, attributes: attributes, relationships: relationships,
                uniquenessConstraints: uniqueness,
                userInfo: try userInfo(values["XD_PSK_userInfo"], "the user info of \(what)"))
        }

        /// Settings every property has (`XD_PPSK_…`).
        struct Common {
            var name: String
            var isOptional: Bool
            var isTransient: Bool
            var isIndexed: Bool
            var renamingIdentifier: String?
            var versionHashModifier: String?
            var userInfo: [UserInfoEntry]
            var values: [String: ArchiveValue]
        }

        mutating func common(_ object: [String: ArchiveValue], key: String, entity: String) throws(ArchiveError) -> Common {
            let name = try archive.string(object["_name"], "the name of property '\(key)' of \(entity)") ?? key
            let what = "property '\(name)' of \(entity)"
            let values = try stereotypes(of: object, what)
            let renaming = try archive.string(recorded(values, "XD_PPSK_elementID", .propertyRenamingIdentifier), "the renaming identifier of \(what)")
            let modifier = try archive.string(recorded(values, "XD_PPSK_versionHashModifier", .propertyVersionHashModifier), "the version hash modifier of \(what)")
            return Common(
                name: name,
                isOptional: try archive.bool(recorded(values, "XD_PPSK_isOptional", .propertyOptional), "'isOptional' of \(what)") ?? false,
                isTransient: try archive.bool(recorded(values, "XD_PPSK_isTransient", .propertyTransient), "'isTransient' of \(what)") ?? false,
                isIndexed: try archive.bool(values["XD_PPSK_isIndexed"], "'isIndexed' of \(what)") ?? false,
                renamingIdentifier: renaming.flatMap { $0.isEmpty ? nil : $0 },
                versionHashModifier: modifier.flatMap { $0.isEmpty ? nil : $0 },
                userInfo: try userInfo(values["XD_PPSK_userInfo"], "the user info of \(what)"),
                values: values)
        }

        mutating func attribute(_ object: [String: ArchiveValue], key: String, entity: String) throws(ArchiveError) -> Attribute {
            let common = try common(object, key: key, entity: entity)
            let values = common.values
            let what = "attribute '\(common.name)' of \(entity)"
            let typeCode = try archive.int(recorded(values, "XD_PAttK_attributeType", .attributeType), "the type of \(what)")
            return Attribute(
                name: common.name, type: typeCode.map(ModelSnapshotDecoder.attributeType) ?? .undefined,
                isOptional: common.isOptional, isTransient: common.isTransient, isIndexed: common.isIndexed,
                defaultValueString: try defaultValue(values["XD_PAttK_defaultValueAsString"]),
                minValueString: try defaultValue(values["XD_PAttK_minValueString"]),
                maxValueString: try defaultValue(values["XD_PAttK_maxValueString"]),
                regularExpressionString: try archive.string(values["XD_PAttK_regularExpressionString"], "the regular expression of \(what)"),
                allowsExternalBinaryDataStorage: try archive.bool(values["XD_PAttK_allowsExternalBinaryDataStorage"], "'allowsExternalBinaryDataStorage' of \(what)") ?? false,
                valueTransformerName: try archive.string(values["XD_PAttK_valueTransformerName"], "the value transformer of \(what)"),
                renamingIdentifier: common.renamingIdentifier, versionHashModifier: common.versionHashModifier,
                userInfo: common.userInfo)
        }

        mutating func relationship(_ object: [String: ArchiveValue], key: String, entity: String) throws(ArchiveError) -> Relationship {
            let common = try common(object, key: key, entity: entity)
            let values = common.values
            let what = "relationship '\(common.name)' of \(entity)"
            let destination = try name(ofReferenced: recorded(values, "XD_PRK_destination", .relationshipDestination), "the destination of \(what)")
            var inverseName: String?
            var inverseEntity: String?
            if let inverse = try archive.optionalObject(recorded(values, "XD_PRK_inverseRelationship", .relationshipInverse), "the inverse of \(what)") {
                inverseName = try archive.string(inverse["_name"], "the inverse name of \(what)")
                inverseEntity = try name(ofReferenced: inverse["_owner"], "the inverse entity of \(what)")
            }
            let ruleCode = try archive.int(recorded(values, "XD_PRK_deleteRule", .relationshipDeletionRule), "the delete rule of \(what)")
            var rule = DeletionRule.nullify
            if let ruleCode {
                guard let known = ModelSnapshotDecoder.deletionRule(ruleCode) else {
                    throw ArchiveError("the delete rule \(ruleCode) of \(what) is unknown")
                }
                rule = known
            }
            var relationship = Relationship(
                name: common.name, destinationEntity: destination, inverseName: inverseName, inverseEntity: inverseEntity,
                isToMany: try archive.bool(recorded(values, "XD_PRK_isToMany", .relationshipToMany), "'isToMany' of \(what)") ?? false,
                isOrdered: try archive.bool(values["XD_PRK_ordered"], "'ordered' of \(what)") ?? false,
                isOptional: common.isOptional, isTransient: common.isTransient,
                minCount: try archive.int(recorded(values, "XD_PRK_minCount", .relationshipMinCount), "the minimum count of \(what)") ?? 0,
                maxCount: try archive.int(recorded(values, "XD_PRK_maxCount", .relationshipMaxCount), "the maximum count of \(what)") ?? 0,
                deletionRule: rule,
                renamingIdentifier: common.renamingIdentifier, versionHashModifier: common.versionHashModifier,
                userInfo: common.userInfo)
            // The snapshot records the counts themselves (no XML defaults apply).
            relationship.hasWrittenMinCount = values["XD_PRK_minCount"] != nil
            relationship.hasWrittenMaxCount = values["XD_PRK_maxCount"] != nil
            return relationship
        }
    }
}
