import ChainPlanReaders
/// Everything inference and the entity's hash inputs read of one resolved entity, with the
/// places it is written (lines and columns) left out: two entities with equal content give the
/// builder nothing to compare, so a step pairs them without comparing property by property.
///
/// A long history keeps most entities unchanged from version to version (WooCommerce: 88
/// entities, a handful change per step), and every step and direct jump compares each pair.
/// The content is built once per version; equality is a field-by-field comparison, without
/// hashing, string building or dictionaries.
///
/// Only entities the shortcut describes exactly have a content (`make` returns nil otherwise):
/// - no composite attribute (its elements come from the model's composite types);
/// - no attribute carrying `NSMigrationAllowTypeTransformation` (it raises a change even
///   between equal attributes);
/// - stored properties with distinct keys (shared keys raise findings);
/// - the first entity of its name (the hash inputs are kept for the first one).
///
/// What equal content still leaves to the step: whether the parent and each relationship's
/// destination keep their names in the step's lineage (`Engine.compareEntities` checks both).
struct EntityContent: Sendable, Equatable {
    /// The entity's own fields (its property lists left out: inference and the hash inputs read
    /// the resolved ones below).
    private let entity: Entity
    private let parent: String?
    private let attributes: [Attribute]
    private let relationships: [Relationship]
    /// What inference maps for this entity from an entity of equal content: every stored
    /// property from itself, sorted by name (as `Engine.compareProperties` gives them).
    let unchangedMappings: [InferredEntityMapping.PropertyMapping]

    /// The content of `view`, whose parent resolves to `parent` (nil: a root, or an unknown
    /// parent), or nil when the shortcut does not apply to it.
    static func make(_ view: ResolvedEntityView, parent: String?, isFirstOfName: Bool) -> EntityContent? {
        guard isFirstOfName else { return nil }
        // A resolved view holds one property per name, so keys can only be shared through
        // renaming identifiers.
        var renamed = false
        for attribute in view.attributes {
            if attribute.type == .composite || InferenceRules.allowsTypeTransformation(attribute) { return nil }
            if !attribute.isTransient, !(attribute.renamingIdentifier ?? "").isEmpty { renamed = true }
        }
        for relationship in view.relationships where !relationship.isTransient && !(relationship.renamingIdentifier ?? "").isEmpty { renamed = true }
        if renamed {
            var keys: Set<String> = []
            for attribute in view.attributes where !attribute.isTransient {
                if !keys.insert(InferenceRules.key(name: attribute.name, renamingIdentifier: attribute.renamingIdentifier)).inserted { return nil }
            }
            for relationship in view.relationships where !relationship.isTransient {
                if !keys.insert(InferenceRules.key(name: relationship.name, renamingIdentifier: relationship.renamingIdentifier)).inserted { return nil }
            }
        }
        return EntityContent(view, parent: parent)
    }

    private init(_ view: ResolvedEntityView, parent: String?) {
        entity = Self.ownFields(view.entity)
        self.parent = parent
        attributes = view.attributes.map(Self.unplaced)
        relationships = view.relationships.map(Self.unplaced)
        var mappings: [InferredEntityMapping.PropertyMapping] = []
        for attribute in view.attributes where !attribute.isTransient { mappings.append(.attribute(attribute.name, from: attribute.name)) }
        for relationship in view.relationships where !relationship.isTransient { mappings.append(.relationship(relationship.name, from: relationship.name)) }
        unchangedMappings = mappings.sorted { $0.destination < $1.destination }
    }

    /// True when `view`, whose parent resolves to `parent`, has exactly this content (what
    /// `make` would build from it, compared without building it): a version can then keep the
    /// previous version's content, and equal contents of a history share their storage, which
    /// later comparisons find at once.
    func describes(_ view: ResolvedEntityView, parent: String?) -> Bool {
        guard parent == self.parent, view.attributes.count == attributes.count, view.relationships.count == relationships.count,
              Self.ownFields(view.entity) == entity else { return false }
        for (attribute, known) in zip(view.attributes, attributes) where Self.unplaced(attribute) != known { return false }
        for (relationship, known) in zip(view.relationships, relationships) where Self.unplaced(relationship) != known { return false }
        return true
    }

    /// The entity's own fields: its place and its property lists left out (the content keeps
    /// the resolved properties apart).
    private static func ownFields(_ entity: Entity) -> Entity {
        var fields = entity
        fields.line = nil
        fields.column = nil
        fields.attributes = []
        fields.relationships = []
        fields.fetchedProperties = []
        return fields
    }

    /// Cheapest differences first: most entities of two versions differ in the number of
    /// properties, or are equal.
    static func == (lhs: EntityContent, rhs: EntityContent) -> Bool {
        lhs.attributes.count == rhs.attributes.count && lhs.relationships.count == rhs.relationships.count
            && lhs.parent == rhs.parent && lhs.entity == rhs.entity
            && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
    }

    private static func unplaced(_ attribute: Attribute) -> Attribute {
        var copy = attribute
        copy.line = nil
        copy.column = nil
        return copy
    }

    private static func unplaced(_ relationship: Relationship) -> Relationship {
        var copy = relationship
        copy.line = nil
        copy.column = nil
        return copy
    }
}

extension InferredEntityMapping.PropertyMapping {
    /// An attribute filled from source attribute `source`.
    static func attribute(_ destination: String, from source: String) -> Self {
        .init(destination: destination, expression: "$source.\(source)")
    }

    /// A relationship filled from the destination instances of source relationship `source`.
    static func relationship(_ destination: String, from source: String) -> Self {
        .init(destination: destination,
              expression: "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"\(source)\", $source.\(source))")
    }
}
