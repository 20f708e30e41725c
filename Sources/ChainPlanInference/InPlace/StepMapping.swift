/// Which source entity and property each destination entity and property of one step takes
/// its data from: the inferred mapping's pairing (renaming identifier, else name; see
/// `Matcher`), with inherited properties included.
package struct StepMapping: Sendable {
    package let source: ResolvedModel
    package let destination: ResolvedModel
    /// Destination entity → source entity.
    package let entitySource: [String: String]
    /// Destination entity → destination attribute → source attribute name (on the source entity).
    private let attributeSource: [String: [String: String]]
    /// Destination entity → destination relationship → source relationship name.
    private let relationshipSource: [String: [String: String]]

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
        var attributes: [String: [String: String]] = [:]
        var relationships: [String: [String: String]] = [:]
        for entity in destination.entities {
            guard let sourceName = entities[entity.name], let old = source.entity(named: sourceName) else { continue }
            for (s, d) in Matcher.match(sources: old.attributes.map { ($0.name, $0.renamingIdentifier) },
                                        destinations: entity.attributes.map { ($0.name, $0.renamingIdentifier) }) {
                attributes[entity.name, default: [:]][entity.attributes[d].name] = old.attributes[s].name
            }
            for (s, d) in Matcher.match(sources: old.relationships.map { ($0.name, $0.renamingIdentifier) },
                                        destinations: entity.relationships.map { ($0.name, $0.renamingIdentifier) }) {
                relationships[entity.name, default: [:]][entity.relationships[d].name] = old.relationships[s].name
            }
        }
        self.entitySource = entities
        self.attributeSource = attributes
        self.relationshipSource = relationships
    }

    /// The source attribute destination attribute `name` of `entity` is filled from, with the
    /// source entity that declares it.
    package func sourceAttribute(of entity: String, _ name: String) -> (declaringEntity: String, attribute: Attribute)? {
        guard let sourceEntity = entitySource[entity], let sourceName = attributeSource[entity]?[name],
              let resolved = source.entity(named: sourceEntity),
              let attribute = resolved.attributes.first(where: { $0.name == sourceName })
        else { return nil }
        return (resolved.inheritedFrom[sourceName] ?? sourceEntity, attribute)
    }

    /// The source relationship destination relationship `name` of `entity` is filled from.
    package func sourceRelationship(of entity: String, _ name: String) -> (declaringEntity: String, relationship: Relationship)? {
        guard let sourceEntity = entitySource[entity], let sourceName = relationshipSource[entity]?[name],
              let resolved = source.entity(named: sourceEntity),
              let relationship = resolved.relationships.first(where: { $0.name == sourceName })
        else { return nil }
        return (resolved.inheritedFrom[sourceName] ?? sourceEntity, relationship)
    }

    /// `entity` and every entity below it in the destination model.
    package func destinationLineage(_ entity: String) -> [String] {
        [entity] + destination.descendants(of: entity)
    }
}
