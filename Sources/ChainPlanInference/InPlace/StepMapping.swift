/// Which source entity and property each destination entity and property of one step takes
/// its data from: the inferred mapping's pairing (renaming identifier, else name; see
/// `Matcher`), with inherited properties included.
package struct StepMapping: Sendable {
    package let source: ResolvedModel
    package let destination: ResolvedModel
    /// Destination entity → source entity.
    package let entitySource: [String: String]
    /// Destination entity → destination attribute → the paired source attribute's position
    /// among the source entity's resolved attributes (looked up in constant time, so a step
    /// over entities with thousands of attributes stays linear).
    private let attributeSource: [String: [String: Int]]
    /// Destination entity → destination relationship → the paired source relationship's position.
    private let relationshipSource: [String: [String: Int]]

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
        var attributes: [String: [String: Int]] = [:]
        var relationships: [String: [String: Int]] = [:]
        for entity in destination.entities {
            guard let sourceName = entities[entity.name], let old = source.entity(named: sourceName) else { continue }
            for (s, d) in Matcher.match(sources: old.attributes.map { ($0.name, $0.renamingIdentifier) },
                                        destinations: entity.attributes.map { ($0.name, $0.renamingIdentifier) }) {
                attributes[entity.name, default: [:]][entity.attributes[d].name] = s
            }
            for (s, d) in Matcher.match(sources: old.relationships.map { ($0.name, $0.renamingIdentifier) },
                                        destinations: entity.relationships.map { ($0.name, $0.renamingIdentifier) }) {
                relationships[entity.name, default: [:]][entity.relationships[d].name] = s
            }
        }
        self.entitySource = entities
        self.attributeSource = attributes
        self.relationshipSource = relationships
    }

    /// The source attribute destination attribute `name` of `entity` is filled from, with the
    /// source entity that declares it.
    package func sourceAttribute(of entity: String, _ name: String) -> (declaringEntity: String, attribute: Attribute)? {
        paired(attributeSource, entity, name, \.attributes, \.name).map { (declaringEntity: $0.0, attribute: $0.1) }
    }

    /// The source relationship destination relationship `name` of `entity` is filled from.
    package func sourceRelationship(of entity: String, _ name: String) -> (declaringEntity: String, relationship: Relationship)? {
        paired(relationshipSource, entity, name, \.relationships, \.name).map { (declaringEntity: $0.0, relationship: $0.1) }
    }

    /// The source property at the position `positions` pairs with destination property `name`
    /// of `entity`, with the entity that declares it.
    private func paired<Property>(_ positions: [String: [String: Int]], _ entity: String, _ name: String,
                                  _ properties: KeyPath<ResolvedEntity, [Property]>, _ propertyName: KeyPath<Property, String>) -> (String, Property)? {
        guard let sourceEntity = entitySource[entity], let index = positions[entity]?[name],
              let resolved = source.entity(named: sourceEntity), resolved[keyPath: properties].indices.contains(index)
        else { return nil }
        let property = resolved[keyPath: properties][index]
        return (resolved.inheritedFrom[property[keyPath: propertyName]] ?? sourceEntity, property)
    }

    /// `entity` and every entity below it in the destination model.
    package func destinationLineage(_ entity: String) -> [String] {
        [entity] + destination.descendants(of: entity)
    }
}
