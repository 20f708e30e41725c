import ChainPlanReaders
import Foundation

/// Which source entity and property each destination entity and property of one step takes
/// its data from: the inferred mapping's pairing (renaming identifier, else name; see
/// `Matcher`), with inherited properties included.
///
/// Entities, and each paired entity's properties, are paired when the mapping is made.
package struct StepMapping: Sendable {
    package let source: ResolvedModel
    package let destination: ResolvedModel
    /// Destination entity → source entity.
    package let entitySource: [String: String]
    /// Per destination entity with a source, attributes and relationships apart: destination
    /// attribute → the paired source attribute's position among the source entity's resolved
    /// attributes, and the same for relationships (looked up in constant time, so a step over
    /// entities with thousands of attributes stays linear).
    private let attributePairings: [String: [String: Int]]
    private let relationshipPairings: [String: [String: Int]]

    package init(source: ObjectModel, destination: ObjectModel) {
        self.init(source: ResolvedModel(source), destination: ResolvedModel(destination))
    }

    /// The same, from the two models already resolved (a chain resolves each version once).
    package init(source: ResolvedModel, destination: ResolvedModel) {
        self.source = source
        self.destination = destination
        var entities: [String: String] = [:]
        for (s, d) in Matcher.match(sources: source.entities.map { ($0.name, $0.entity.renamingIdentifier) },
                                    destinations: destination.entities.map { ($0.name, $0.entity.renamingIdentifier) }) {
            entities[destination.entities[d].name] = source.entities[s].name
        }
        self.entitySource = entities
        attributePairings = Self.pairings(source, destination, entities) { $0.attributes.map { ($0.name, $0.renamingIdentifier) } }
        relationshipPairings = Self.pairings(source, destination, entities) { $0.relationships.map { ($0.name, $0.renamingIdentifier) } }
    }

    /// Each paired destination entity's properties (as `keys` lists them: name and renaming
    /// identifier, in the entity's order) paired with its source entity's: name → position among
    /// the source entity's.
    private static func pairings(_ source: ResolvedModel, _ destination: ResolvedModel, _ entitySource: [String: String],
                                 keys: (ResolvedEntity) -> [(name: String, renamingIdentifier: String?)]) -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        result.reserveCapacity(entitySource.count)
        for (name, sourceName) in entitySource {
            guard let entity = destination.entity(named: name), let old = source.entity(named: sourceName) else { continue }
            let mine = keys(entity)
            var positions: [String: Int] = [:]
            positions.reserveCapacity(mine.count)
            for (s, d) in Matcher.match(sources: keys(old), destinations: mine) {
                positions[mine[d].name] = s
            }
            result[name] = positions
        }
        return result
    }

    /// The source attribute destination attribute `name` of `entity` is filled from, with the
    /// source entity that declares it.
    package func sourceAttribute(of entity: String, _ name: String) -> (declaringEntity: String, attribute: Attribute)? {
        paired(entity, name, attributePairings[entity]) {
            $0.attributes.indices.contains($1) ? ($0.attributes[$1], $0.attributes[$1].name) : nil
        }.map { (declaringEntity: $0.0, attribute: $0.1) }
    }

    /// The source relationship destination relationship `name` of `entity` is filled from.
    package func sourceRelationship(of entity: String, _ name: String) -> (declaringEntity: String, relationship: Relationship)? {
        paired(entity, name, relationshipPairings[entity]) {
            $0.relationships.indices.contains($1) ? ($0.relationships[$1], $0.relationships[$1].name) : nil
        }.map { (declaringEntity: $0.0, relationship: $0.1) }
    }

    /// The source property at the position `positions` pairs with destination property `name` of
    /// `entity`, with the entity that declares it. `property` reads a position of the source
    /// entity in place (a closure, not a key path: this runs for every column of every table
    /// planned, and the entity is not copied to read one property).
    private func paired<Property>(_ entity: String, _ name: String, _ positions: [String: Int]?,
                                  _ property: (ResolvedEntity, Int) -> (Property, String)?) -> (String, Property)? {
        guard let sourceEntity = entitySource[entity], let index = positions?[name], let at = source.position(of: sourceEntity),
              let (found, foundName) = property(source.entities[at], index) else { return nil }
        return (source.entities[at].inheritedFrom[foundName] ?? sourceEntity, found)
    }

    /// `entity` and every entity below it in the destination model.
    package func destinationLineage(_ entity: String) -> [String] {
        [entity] + destination.descendants(of: entity)
    }
}
