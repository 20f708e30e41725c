import ChainPlanReaders
import Foundation

/// Computes every entity and property hash of a model (§1.3–§1.5).
///
/// An entity hash is `name ‖ u8(isAbstract) ‖ H(superentity) ‖ H(p) for every non-transient
/// attribute and relationship, own and inherited, sorted by name ‖ entity versionHashModifier ‖
/// each own uniqueness constraint joined with ".", the joined strings sorted`. A model whose
/// hashes Core Data could not compute either (an unknown attribute type, a missing or cyclic
/// parent) is a `HashFailure`, not a guess.
package enum ModelHasher {
    /// Hashes `model`, every property's hash included.
    package static func hash(_ model: ObjectModel) -> Result<ModelHashes, HashFailure> {
        hash(model, withProperties: true)
    }

    /// Hashes `model`; `withProperties: false` leaves `ModelHashes.properties` empty (the entity
    /// hashes, caveats and unverified entities are the same), which spares a `Data` per property.
    package static func hash(_ model: ObjectModel, withProperties: Bool) -> Result<ModelHashes, HashFailure> {
        let resolved = model.resolved()
        let entities = resolved.entities
        for entity in entities {
            if entity.hasCyclicAncestry {
                return .failure(HashFailure("entity '\(entity.name)' is its own ancestor"))
            }
            if let parent = entity.entity.parentEntity, resolved.entity(named: parent) == nil {
                return .failure(HashFailure("entity '\(entity.name)' names parent '\(parent)', which the model does not define"))
            }
        }
        let result: Hashed
        switch hash(entities, composites: model.composites, withProperties: withProperties) {
        case .success(let value): result = value
        case .failure(let failure): return .failure(failure)
        }
        var caveats = result.caveats
        var entityHashes: [String: Data] = [:]
        entityHashes.reserveCapacity(entities.count)
        var unverifiedNames: Set<String> = []
        for (position, entity) in entities.enumerated() {
            if let digest = result.digests[position] { entityHashes[entity.name] = digest.data }
            if result.unverified[position] { unverifiedNames.insert(entity.name) }
        }
        if !VersionHasher.isVerifiedOrder(Array(entityHashes.keys)) {
            caveats.insert(HashCaveat(entity: "", reason: "entity names whose order depends on case, '_' or non-ASCII characters [open]"))
            unverifiedNames.formUnion(entityHashes.keys)
        }
        return .success(ModelHashes(entities: entityHashes, properties: result.properties,
                                    caveats: caveats.sorted(), unverifiedEntities: unverifiedNames))
    }

    /// Every entity's hash (by position), whether it is unverified, the caveats noted, and the
    /// property hashes when asked for.
    struct Hashed {
        var digests: [Digest32?]
        var unverified: [Bool]
        var caveats: Set<HashCaveat>
        var properties: [String: [String: Data]]
    }

    /// The hashes of a resolved model's `entities`.
    static func hash(_ entities: [ResolvedEntity], composites: [CompositeType], withProperties: Bool) -> Result<Hashed, HashFailure> {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(256)
        var caveats: Set<HashCaveat> = []
        let declared: Declarations
        switch Declarations.hash(entities, composites: composites, caveats: &caveats, scratch: &scratch) {
        case .success(let value): declared = value
        case .failure(let failure): return .failure(failure)
        }
        // Declared properties with a caveat, as (declaring entity, property).
        let caveatProperties = Set(caveats.compactMap { caveat in caveat.property.map { Declared(entity: caveat.entity, property: $0) } })
        let hasHierarchy = entities.contains { !$0.ancestors.isEmpty }
        var positionByName: [String: Int] = [:]
        if hasHierarchy {
            for (position, entity) in entities.enumerated() { positionByName[entity.name] = position }
        }
        var declaredMaps: [Int: [String: Digest32]] = [:]

        var entityDigests = [Digest32?](repeating: nil, count: entities.count)
        var unverified = [Bool](repeating: false, count: entities.count)
        var properties: [String: [String: Data]] = [:]
        // Parents before children: ancestors are listed nearest first, so hash by depth.
        let order = hasHierarchy
            ? entities.indices.sorted { entities[$0].ancestors.count < entities[$1].ancestors.count }
            : Array(entities.indices)
        var bytes: [UInt8] = []
        for position in order {
            let entity = entities[position]
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: entity.name.utf8)
            bytes.append(entity.entity.isAbstract ? 1 : 0)
            if let parent = entity.parent, let parentPosition = positionByName[parent], let parentDigest = entityDigests[parentPosition] {
                bytes.append(parentDigest)
                if unverified[parentPosition] { unverified[position] = true }
            }
            var own: [String: Data] = [:]
            var verifiedOrder = true
            /// Records the property `name` (hash `digest`, declared by the entity at `owner`).
            func member(_ name: String, _ digest: Digest32, owner: Int) {
                if withProperties { own[name] = digest.data }
                if declared.hasPropertyCaveat[owner], caveatProperties.contains(Declared(entity: entities[owner].name, property: name)) {
                    unverified[position] = true
                }
            }
            if entity.ancestors.isEmpty, entity.hasASCIINames {
                // Declared here only, ASCII names (byte order is Core Data's order): sort the
                // members, keep each name's first declaration (attributes before relationships).
                let attributeCount = entity.attributes.count
                let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
                let sorted = names.indices.sorted { names[$0] == names[$1] ? $0 < $1 : names[$0] < names[$1] }
                var previous: Int?
                var previousFed: Int?
                for index in sorted {
                    if let previous, names[previous] == names[index] { continue }
                    previous = index
                    let isAttribute = index < attributeCount
                    let digest = isAttribute ? declared.attributes[position][index] : declared.relationships[position][index - attributeCount]
                    member(names[index], digest, owner: position)
                    guard !(isAttribute ? entity.attributes[index].isTransient : entity.relationships[index - attributeCount].isTransient) else { continue }
                    if let previousFed, VersionHasher.foldedPrecedes(names[index], names[previousFed]) { verifiedOrder = false }
                    previousFed = index
                    bytes.append(digest)
                }
            } else {
                var ownDigests: [String: Digest32] = [:]
                var fed: [String: Digest32] = [:]
                var names: [String] = []
                // Attributes first: a name taken by both kinds keeps the attribute (as ResolvedModel does).
                let members = entity.attributes.map { ($0.name, $0.isTransient) } + entity.relationships.map { ($0.name, $0.isTransient) }
                for (name, isTransient) in members where ownDigests[name] == nil {
                    let owner = entity.inheritedFrom[name] ?? entity.name
                    guard let ownerPosition = owner == entity.name ? position : positionByName[owner] else { continue }
                    if declaredMaps[ownerPosition] == nil { declaredMaps[ownerPosition] = declared.map(of: entities[ownerPosition].entity, at: ownerPosition) }
                    guard let digest = declaredMaps[ownerPosition]?[name] else { continue }
                    ownDigests[name] = digest
                    member(name, digest, owner: ownerPosition)
                    if !isTransient { fed[name] = digest; names.append(name) }
                }
                let sorted = VersionHasher.sortedNames(names)
                verifiedOrder = VersionHasher.isVerifiedOrder(sorted: sorted)
                for name in sorted { if let digest = fed[name] { bytes.append(digest) } }
            }
            if !verifiedOrder {
                caveats.insert(HashCaveat(entity: entity.name, reason: "property names whose order depends on case, '_' or non-ASCII characters [open]"))
                unverified[position] = true
            }
            if let modifier = entity.entity.versionHashModifier, !modifier.isEmpty {
                bytes.append(contentsOf: modifier.utf8)
                caveats.insert(HashCaveat(entity: entity.name, reason: "entity versionHashModifier: its position in the hash is read from code only [open]"))
                unverified[position] = true
            }
            if !entity.entity.uniquenessConstraints.isEmpty {
                let constraints = entity.entity.uniquenessConstraints.map { $0.joined(separator: ".") }.filter { !$0.isEmpty }
                // One constraint whose names are already in order is verified; else the order is [open].
                if constraints.count > 1 || entity.entity.uniquenessConstraints.contains(where: { $0 != VersionHasher.sortedNames($0) }) {
                    caveats.insert(HashCaveat(entity: entity.name, reason: "order inside or among uniqueness constraints [open]"))
                    unverified[position] = true
                }
                for constraint in VersionHasher.sortedNames(constraints) { bytes.append(contentsOf: constraint.utf8) }
            }
            entityDigests[position] = Digest32(sha256: bytes)
            if withProperties { properties[entity.name] = own }
        }
        return .success(Hashed(digests: entityDigests, unverified: unverified, caveats: caveats, properties: properties))
    }

    /// A property by its declaring entity.
    struct Declared: Hashable {
        var entity: String
        var property: String
    }

    /// Every entity's declared property hashes, by entity position, aligned with its declared
    /// attributes and relationships.
    struct Declarations {
        var attributes: [[Digest32]] = []
        var relationships: [[Digest32]] = []
        /// Positions whose declared properties carry a caveat (the caveats say which).
        var hasPropertyCaveat: [Bool] = []

        /// Hashes every declared property, inserting their caveats. A relationship is noted only
        /// where it owns its name (no attribute or earlier relationship of the entity has it).
        static func hash(_ entities: [ResolvedEntity], composites: [CompositeType], caveats: inout Set<HashCaveat>,
                         scratch: inout [UInt8]) -> Result<Declarations, HashFailure> {
            var result = Declarations()
            result.attributes.reserveCapacity(entities.count)
            result.relationships.reserveCapacity(entities.count)
            result.hasPropertyCaveat = [Bool](repeating: false, count: entities.count)
            for (position, entity) in entities.enumerated() {
                var digests: [Digest32] = []
                digests.reserveCapacity(entity.entity.attributes.count)
                for attribute in entity.entity.attributes {
                    switch attributeDigest(attribute, in: entity.name, composites: composites, scratch: &scratch) {
                    case .success(let (digest, notes)):
                        digests.append(digest)
                        for note in notes { caveats.insert(HashCaveat(entity: entity.name, property: attribute.name, reason: note)) }
                        if !notes.isEmpty { result.hasPropertyCaveat[position] = true }
                    case .failure(let failure):
                        return .failure(failure)
                    }
                }
                result.attributes.append(digests)
                var relationships: [Digest32] = []
                relationships.reserveCapacity(entity.entity.relationships.count)
                var taken: Set<String>?
                for (index, relationship) in entity.entity.relationships.enumerated() {
                    let selfInverse = relationship.inverseName == relationship.name
                        && relationship.destinationEntity == entity.name
                    relationships.append(VersionHasher.relationshipDigest(relationship, selfInverse: selfInverse, scratch: &scratch))
                    let notes = relationshipNotes(relationship, selfInverse: selfInverse)
                    if taken == nil, !notes.isEmpty {
                        taken = Set(entity.entity.attributes.map(\.name) + entity.entity.relationships[..<index].map(\.name))
                    }
                    guard taken != nil else { continue }
                    guard taken?.insert(relationship.name).inserted == true, !notes.isEmpty else { continue }
                    for note in notes { caveats.insert(HashCaveat(entity: entity.name, property: relationship.name, reason: note)) }
                    result.hasPropertyCaveat[position] = true
                }
                result.relationships.append(relationships)
            }
            return .success(result)
        }

        /// The declared hashes of `entity` (at `position`) by name, first declaration winning.
        func map(of entity: Entity, at position: Int) -> [String: Digest32] {
            var map: [String: Digest32] = [:]
            for (index, attribute) in entity.attributes.enumerated() where map[attribute.name] == nil {
                map[attribute.name] = attributes[position][index]
            }
            for (index, relationship) in entity.relationships.enumerated() where map[relationship.name] == nil {
                map[relationship.name] = relationships[position][index]
            }
            return map
        }
    }

    /// An attribute's hash and the caveats on it, built in `scratch`.
    static func attributeDigest(_ attribute: Attribute, in entity: String, composites: [CompositeType],
                                scratch: inout [UInt8]) -> Result<(Digest32, [String]), HashFailure> {
        if attribute.isDerived {
            let expression = attribute.derivationExpression ?? ""
            return .success((Digest32(sha256: Array(VersionHasher.derivationFormat(expression).utf8)),
                             ["derived attribute: hashed from its expression only, as Core Data's code does [code; unverified]"]))
        }
        guard let code = VersionHasher.typeCode(attribute.type) else {
            return .failure(HashFailure("attribute '\(attribute.name)' of '\(entity)' has the unknown type '\(attribute.type.xmlValue)'"))
        }
        /// The ordinary attribute hash.
        func plain() -> Digest32 { VersionHasher.plainAttributeDigest(attribute, type: code, scratch: &scratch) }
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
                bytes.append(VersionHasher.plainAttributeDigest(own, type: elementCode, scratch: &scratch))
            }
            return .success((Digest32(sha256: bytes),
                             ["composite attribute: hashed from its elements only, as Core Data's code does [code; unverified]"]))
        case .decimal, .uri:
            return .success((plain(),
                             ["type \(attribute.type.xmlValue): code \(code) has no Core Data-written example [open]"]))
        case .undefined, .objectID:
            return .success((plain(),
                             ["type \(attribute.type.xmlValue): code \(code) read from code only [code; unverified]"]))
        default:
            return .success((plain(), []))
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

extension ResolvedEntity {
    /// True when every attribute and relationship name is ASCII.
    var hasASCIINames: Bool {
        attributes.allSatisfy { $0.name.utf8.allSatisfy { $0 < 0x80 } }
            && relationships.allSatisfy { $0.name.utf8.allSatisfy { $0 < 0x80 } }
    }
}
