/// An `ObjectModel` with entity inheritance worked out.
///
/// Each entity appears once, in file order (for a name defined twice, the first definition is
/// used; the second is a CP115 finding). Resolution is cycle-safe: following parents stops at
/// an entity already seen, at a parent that does not exist, or when the work budget runs out
/// (a hostile model with a huge inheritance fan-out), so it always terminates in bounded time
/// and memory.
package struct ResolvedModel: Sendable, Hashable {
    /// Upper bound on ancestors plus inherited properties recorded over all entities.
    package static let defaultBudget = 500_000

    /// Every entity (first definition of each name), in file order.
    package private(set) var entities: [ResolvedEntity]
    /// False when the budget ran out: some entities then lack inherited properties or ancestors.
    package private(set) var isComplete: Bool
    private var indexByName: [String: Int]

    /// Resolves `model`; `budget` bounds the total number of ancestor and inherited-property
    /// entries recorded.
    package init(_ model: ObjectModel, budget: Int = ResolvedModel.defaultBudget) {
        var firstIndex: [String: Int] = [:]
        var distinct: [Int] = []
        for (index, entity) in model.entities.enumerated() where firstIndex[entity.name] == nil {
            firstIndex[entity.name] = index
            distinct.append(index)
        }
        var remaining = budget
        var complete = true
        var resolved: [ResolvedEntity] = []
        resolved.reserveCapacity(distinct.count)
        var indexByName: [String: Int] = [:]
        for index in distinct {
            let entity = model.entities[index]
            // Ancestors, nearest first, stopping at unknown parents and repeats.
            var chain: [Int] = []
            var seen: Set<Int> = []
            var cyclic = false
            var parentName = entity.parentEntity
            if entity.parentEntity != nil { seen.insert(index) }
            while let name = parentName, let parent = firstIndex[name] {
                if seen.contains(parent) {
                    cyclic = true
                    break
                }
                if remaining <= 0 {
                    complete = false
                    break
                }
                remaining -= 1
                chain.append(parent)
                seen.insert(parent)
                parentName = model.entities[parent].parentEntity
            }
            // Properties: the root-most ancestor's first, then down to the entity's own.
            var attributes = entity.attributes
            var relationships = entity.relationships
            var fetchedProperties = entity.fetchedProperties
            var inheritedFrom: [String: String] = [:]
            if !chain.isEmpty {
                attributes = []
                relationships = []
                fetchedProperties = []
                var taken: Set<String> = []
                for source in chain.reversed() + [index] {
                    let declaring = model.entities[source]
                    let inherited = source != index
                    if inherited {
                        let size = declaring.attributes.count + declaring.relationships.count
                            + declaring.fetchedProperties.count
                        if size > remaining {
                            complete = false
                            continue
                        }
                        remaining -= size
                    }
                    for attribute in declaring.attributes where taken.insert(attribute.name).inserted {
                        if inherited { inheritedFrom[attribute.name] = declaring.name }
                        attributes.append(attribute)
                    }
                    for relationship in declaring.relationships where taken.insert(relationship.name).inserted {
                        if inherited { inheritedFrom[relationship.name] = declaring.name }
                        relationships.append(relationship)
                    }
                    for fetched in declaring.fetchedProperties where taken.insert(fetched.name).inserted {
                        if inherited { inheritedFrom[fetched.name] = declaring.name }
                        fetchedProperties.append(fetched)
                    }
                }
            }
            let ancestors = chain.map { model.entities[$0].name }
            indexByName[entity.name] = resolved.count
            resolved.append(ResolvedEntity(
                entity: entity,
                ancestors: ancestors,
                rootEntityName: ancestors.last ?? entity.name,
                hasCyclicAncestry: cyclic,
                subentities: [],
                attributes: attributes,
                relationships: relationships,
                fetchedProperties: fetchedProperties,
                inheritedFrom: inheritedFrom
            ))
        }
        // Direct subentities, in file order.
        for position in resolved.indices {
            let entity = resolved[position].entity
            guard let parent = entity.parentEntity, parent != entity.name,
                  let parentPosition = indexByName[parent] else { continue }
            resolved[parentPosition].subentities.append(entity.name)
        }
        self.entities = resolved
        self.isComplete = complete
        self.indexByName = indexByName
    }

    /// The entity named `name`, if the model defines it.
    package func entity(named name: String) -> ResolvedEntity? {
        indexByName[name].map { entities[$0] }
    }

    /// The position in `entities` of the entity named `name` (reading one of its properties
    /// through it copies that property, not the whole entity).
    package func position(of name: String) -> Int? { indexByName[name] }

    /// Every entity below `name` (children, grandchildren, …) in breadth-first order; cycle-safe.
    package func descendants(of name: String) -> [String] {
        var result: [String] = []
        var seen: Set<String> = [name]
        var queue = entity(named: name)?.subentities ?? []
        var head = 0
        while head < queue.count {
            let next = queue[head]
            head += 1
            guard seen.insert(next).inserted else { continue }
            result.append(next)
            queue += entity(named: next)?.subentities ?? []
        }
        return result
    }
}

/// One entity with its inherited properties and place in the hierarchy.
package struct ResolvedEntity: Sendable, Hashable {
    /// The entity as declared.
    package var entity: Entity
    /// Ancestor names, nearest first (parent, grandparent, …). Stops before a parent that does
    /// not exist or one already listed (a cycle).
    package var ancestors: [String]
    /// The topmost ancestor, or the entity itself when it has no (known) parent.
    package var rootEntityName: String
    /// True when following parents leads back to an entity already visited (see CP117).
    package var hasCyclicAncestry: Bool
    /// Direct subentities, in file order.
    package var subentities: [String]
    /// Inherited attributes first (root-most ancestor first), then declared ones. A name is
    /// listed once: an inherited property wins over a redeclaration (CP115).
    package var attributes: [Attribute]
    /// Relationships, ordered like `attributes`.
    package var relationships: [Relationship]
    /// Fetched properties, ordered like `attributes`.
    package var fetchedProperties: [FetchedProperty]
    /// Inherited property name → the ancestor that declares it. Declared properties are not
    /// listed (so a redeclared inherited name maps to the ancestor: a CP115 finding).
    package var inheritedFrom: [String: String]

    package var name: String { entity.name }

    /// The entity's direct parent, when it exists in the model.
    package var parent: String? { ancestors.first }

    /// Names of all properties (attributes, relationships, fetched properties), inherited ones included.
    package var propertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }

    /// True when the property `name` is inherited from an ancestor rather than declared here.
    package func isInherited(_ name: String) -> Bool { inheritedFrom[name] != nil }
}

extension ObjectModel {
    /// The model with inheritance resolved; see `ResolvedModel`.
    package func resolved() -> ResolvedModel { ResolvedModel(self) }
}
