import ChainPlanInference
import ChainPlanReaders

/// Attributes moved from an entity into a new entity between two models (the first half of the
/// expand → copy → contract pattern): at `old` entity S has attribute `x`; at `new`, S (matched by
/// renaming identifier or name, §4.1 keys) no longer has `x` but has a relationship `r` to an
/// entity E that `old` lacks, and E has an attribute of `x`'s type named like `x` (or E is named
/// like `x` and has one attribute of that type). Example: `Aircraft.flightData` (Binary) at V2; at V4
/// `Aircraft.flightRecord` → `FlightData` whose `data` is Binary: `flightData` moved into
/// `FlightData.data`.
enum MovedAttributes {
    struct Move: Hashable {
        /// The entity at `new` (its name) and at `old`.
        var entity: String
        var oldEntity: String
        var relationship: Relationship
        var destination: String
        var pairs: [CopyIntoEntity.Pair]
    }

    /// The §4.1 key, as inference gives it (an empty identifier counts as none).
    static func key(_ name: String, _ identifier: String?) -> String {
        InferenceRules.key(name: name, renamingIdentifier: identifier)
    }

    /// The entity of `old` that `entity` (of a later model) is, by §4.1 key.
    static func counterpart(of entity: Entity, in old: ObjectModel) -> Entity? {
        let wanted = key(entity.name, entity.renamingIdentifier)
        return old.entities.first { key($0.name, $0.renamingIdentifier) == wanted }
    }

    static func find(old: ObjectModel, new: ObjectModel) -> [Move] {
        let oldEntityKeys = Set(old.entities.map { key($0.name, $0.renamingIdentifier) })
        var moves: [Move] = []
        for entity in new.entities {
            guard let source = counterpart(of: entity, in: old) else { continue }
            let newKeys = Set(entity.attributes.map { key($0.name, $0.renamingIdentifier) } + entity.relationships.map { key($0.name, $0.renamingIdentifier) })
            let newNames = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
            var removed = source.attributes.filter {
                !$0.isTransient && !$0.isDerived && !newKeys.contains(key($0.name, $0.renamingIdentifier)) && !newNames.contains($0.name)
            }
            let oldRelationships = Set(source.relationships.map { key($0.name, $0.renamingIdentifier) })
            for relationship in entity.relationships where !oldRelationships.contains(key(relationship.name, relationship.renamingIdentifier)) {
                guard !removed.isEmpty, let target = relationship.destinationEntity, let destination = new.entity(named: target),
                      !oldEntityKeys.contains(key(destination.name, destination.renamingIdentifier)) else { continue }
                let candidates = destination.attributes.filter { !$0.isTransient && !$0.isDerived }
                var pairs: [CopyIntoEntity.Pair] = []
                for attribute in removed {
                    if let same = candidates.first(where: { $0.name == attribute.name && $0.type == attribute.type }) {
                        pairs.append(.init(from: attribute.name, to: same.name))
                    }
                }
                // An entity named after the attribute (`flightData` → `FlightData`) takes it as its
                // only attribute of that type; a same-typed attribute alone is not evidence enough.
                if pairs.isEmpty, let attribute = removed.first(where: { $0.name.lowercased() == destination.name.lowercased() }) {
                    let sameType = candidates.filter { $0.type == attribute.type }
                    if sameType.count == 1, let only = sameType.first { pairs.append(.init(from: attribute.name, to: only.name)) }
                }
                guard !pairs.isEmpty else { continue }
                let moved = Set(pairs.map(\.from))
                removed.removeAll { moved.contains($0.name) }
                moves.append(Move(entity: entity.name, oldEntity: source.name, relationship: relationship, destination: destination.name, pairs: pairs))
            }
        }
        return moves
    }
}
