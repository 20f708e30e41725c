import Foundation

/// Computes every entity and property hash of a model (§1.3–§1.5).
///
/// An entity hash is `name ‖ u8(isAbstract) ‖ H(superentity) ‖ H(p) for every non-transient
/// attribute and relationship, own and inherited, sorted by name ‖ entity versionHashModifier ‖
/// each own uniqueness constraint joined with ".", the joined strings sorted`. A model whose
/// hashes Core Data could not compute either (an unknown attribute type, a missing or cyclic
/// parent) is a `HashFailure`, not a guess.
public enum ModelHasher {
    /// Hashes `model`.
    public static func hash(_ model: ObjectModel) -> Result<ModelHashes, HashFailure> {
        let resolved = model.resolved()
        for entity in resolved.entities {
            if entity.hasCyclicAncestry {
                return .failure(HashFailure("entity '\(entity.name)' is its own ancestor"))
            }
            if let parent = entity.entity.parentEntity, resolved.entity(named: parent) == nil {
                return .failure(HashFailure("entity '\(entity.name)' names parent '\(parent)', which the model does not define"))
            }
        }
        var caveats: Set<HashCaveat> = []
        // Declared properties, hashed once per declaring entity.
        var declared: [String: [String: Data]] = [:]
        for entity in resolved.entities {
            var hashes: [String: Data] = [:]
            for attribute in entity.entity.attributes {
                switch attributeHash(attribute, in: entity.name, composites: model.composites) {
                case .success(let (hash, notes)):
                    hashes[attribute.name] = hashes[attribute.name] ?? hash
                    for note in notes { caveats.insert(HashCaveat(entity: entity.name, property: attribute.name, reason: note)) }
                case .failure(let failure):
                    return .failure(failure)
                }
            }
            for relationship in entity.entity.relationships where hashes[relationship.name] == nil {
                let selfInverse = relationship.inverseName == relationship.name
                    && relationship.destinationEntity == entity.name
                hashes[relationship.name] = VersionHasher.relationship(relationship, selfInverse: selfInverse)
                for note in relationshipNotes(relationship, selfInverse: selfInverse) {
                    caveats.insert(HashCaveat(entity: entity.name, property: relationship.name, reason: note))
                }
            }
            declared[entity.name] = hashes
        }

        var entityHashes: [String: Data] = [:]
        var properties: [String: [String: Data]] = [:]
        var unverified: Set<String> = []
        // Declared properties with a caveat, as (declaring entity, property).
        let caveatProperties = Set(caveats.compactMap { caveat in caveat.property.map { Declared(entity: caveat.entity, property: $0) } })
        // Parents before children: ancestors are listed nearest first, so hash by depth.
        for entity in resolved.entities.sorted(by: { $0.ancestors.count < $1.ancestors.count }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entity.name.utf8.count + 33 + 32 * (entity.attributes.count + entity.relationships.count))
            bytes.append(contentsOf: entity.name.utf8)
            bytes.append(entity.entity.isAbstract ? 1 : 0)
            if let parent = entity.parent, let parentHash = entityHashes[parent] {
                bytes += parentHash
                if unverified.contains(parent) { unverified.insert(entity.name) }
            }
            var own: [String: Data] = [:]
            var fed: [String: Data] = [:]
            var names: [String] = []
            // Attributes first: a name taken by both kinds keeps the attribute (as ResolvedModel does).
            let members = entity.attributes.map { ($0.name, $0.isTransient) } + entity.relationships.map { ($0.name, $0.isTransient) }
            for (name, isTransient) in members where own[name] == nil {
                let owner = entity.inheritedFrom[name] ?? entity.name
                guard let hash = declared[owner]?[name] else { continue }
                own[name] = hash
                if !isTransient { fed[name] = hash; names.append(name) }
                if !caveatProperties.isEmpty, caveatProperties.contains(Declared(entity: owner, property: name)) { unverified.insert(entity.name) }
            }
            let sorted = VersionHasher.sortedNames(names)
            if !VersionHasher.isVerifiedOrder(sorted: sorted) {
                caveats.insert(HashCaveat(entity: entity.name, reason: "property names whose order depends on case, '_' or non-ASCII characters [open]"))
                unverified.insert(entity.name)
            }
            for name in sorted { if let hash = fed[name] { bytes.append(contentsOf: hash) } }
            if let modifier = entity.entity.versionHashModifier, !modifier.isEmpty {
                bytes += Array(modifier.utf8)
                caveats.insert(HashCaveat(entity: entity.name, reason: "entity versionHashModifier: its position in the hash is read from code only [open]"))
                unverified.insert(entity.name)
            }
            let constraints = entity.entity.uniquenessConstraints.map { $0.joined(separator: ".") }.filter { !$0.isEmpty }
            // One constraint whose names are already in order is verified; else the order is [open].
            if constraints.count > 1 || entity.entity.uniquenessConstraints.contains(where: { $0 != VersionHasher.sortedNames($0) }) {
                caveats.insert(HashCaveat(entity: entity.name, reason: "order inside or among uniqueness constraints [open]"))
                unverified.insert(entity.name)
            }
            for constraint in VersionHasher.sortedNames(constraints) { bytes += Array(constraint.utf8) }
            entityHashes[entity.name] = VersionHasher.sha256(bytes)
            properties[entity.name] = own
        }
        if !VersionHasher.isVerifiedOrder(Array(entityHashes.keys)) {
            caveats.insert(HashCaveat(entity: "", reason: "entity names whose order depends on case, '_' or non-ASCII characters [open]"))
            unverified.formUnion(entityHashes.keys)
        }
        return .success(ModelHashes(entities: entityHashes, properties: properties,
                                    caveats: caveats.sorted(), unverifiedEntities: unverified))
    }

    /// A property by its declaring entity.
    struct Declared: Hashable {
        var entity: String
        var property: String
    }

    /// An attribute's hash and the caveats on it.
    static func attributeHash(_ attribute: Attribute, in entity: String,
                              composites: [CompositeType]) -> Result<(Data, [String]), HashFailure> {
        if attribute.isDerived {
            let expression = attribute.derivationExpression ?? ""
            return .success((VersionHasher.derivedAttribute(expression: expression),
                             ["derived attribute: hashed from its expression only, as Core Data's code does [code; unverified]"]))
        }
        guard let code = VersionHasher.typeCode(attribute.type) else {
            return .failure(HashFailure("attribute '\(attribute.name)' of '\(entity)' has the unknown type '\(attribute.type.xmlValue)'"))
        }
        switch attribute.type {
        case .composite:
            let elements = CompositeType.elements(of: attribute, among: composites).filter { !$0.isTransient }
            var bytes: [UInt8] = []
            for element in elements.sorted(by: { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }) {
                var own = element
                own.name = String(element.name.split(separator: ".").last ?? Substring(element.name))
                guard let elementCode = VersionHasher.typeCode(element.type) else {
                    return .failure(HashFailure("composite element '\(element.name)' of '\(entity)' has the unknown type '\(element.type.xmlValue)'"))
                }
                bytes += VersionHasher.plainAttribute(own, type: elementCode)
            }
            return .success((VersionHasher.sha256(bytes),
                             ["composite attribute: hashed from its elements only, as Core Data's code does [code; unverified]"]))
        case .decimal, .uri:
            return .success((VersionHasher.plainAttribute(attribute, type: code),
                             ["type \(attribute.type.xmlValue): code \(code) has no Core Data-written example [open]"]))
        case .undefined, .objectID:
            return .success((VersionHasher.plainAttribute(attribute, type: code),
                             ["type \(attribute.type.xmlValue): code \(code) read from code only [code; unverified]"]))
        default:
            return .success((VersionHasher.plainAttribute(attribute, type: code), []))
        }
    }

    static func relationshipNotes(_ relationship: Relationship, selfInverse: Bool) -> [String] {
        var notes: [String] = []
        if selfInverse { notes.append("self-inverse relationship: no inverse name fed [open]") }
        if relationship.hasWrittenMinCount, relationship.minCount != 0 {
            notes.append("explicit minCount \(relationship.minCount) [open]")
        }
        if relationship.hasWrittenMaxCount, relationship.maxCount != 1, !(relationship.isToMany && relationship.maxCount == 0) {
            notes.append("explicit maxCount \(relationship.maxCount) [open]")
        }
        if !relationship.hasWrittenMaxCount, !relationship.isToMany {
            notes.append("to-one without maxCount: 1 assumed [open]")
        }
        return notes
    }
}
