import ChainPlanCore
import ChainPlanReaders

extension InferenceRules {
    /// §4.1: each side keys its entities by renaming identifier, else name; exact key equality
    /// pairs them. No fallback from an identifier to the name.
    package static let entityMatching = InferenceRule(
        id: "key-match",
        checks: "Entities, and the stored properties of matched entities, are paired by key (renaming identifier, else name) on each side, by exact equality; "
            + "a source entity that carries an identifier from an earlier rename is matched only by a destination keyed by that identifier",
        basis: .coreDataBuilder,
        examples: [
            example("renamed with the old name as renaming identifier",
                    entity("Car", attribute("color", "String")),
                    entity("Automobile", attribute("color", "String"), "elementID=\"Car\""), .inferred),
            example("a source identifier left from an earlier rename does not match the plain name",
                    entity("Note", attribute("title", "String"), "elementID=\"Memo\"") + entity("Tag"),
                    entity("Note", attribute("title", "String")) + entity("Tag", attribute("name", "String")),
                    .inferred, fires: false),
            example("the identifier chains: both sides keyed 'Car'",
                    entity("Automobile", attribute("color", "String"), "elementID=\"Car\""),
                    entity("Vehicle", attribute("color", "String"), "elementID=\"Car\""), .inferred),
        ])

    /// A matched entity under another name: Core Data infers the rename.
    static func renamedEntity(_ pair: EntityPair) -> InferenceFindings {
        let (old, new) = (pair.source.entity.name, pair.destination.entity.name)
        guard old != new else { return [] }
        return [entityMatching.change(
            .entityRenamed, entity: new,
            detail: "entity '\(old)' is renamed to '\(new)' (renaming identifier '\(entityKey(pair.destination))')", verdict: .inferable,
            location: pair.location)]
    }

    /// A matched attribute under another name (its renaming identifier): Core Data infers the rename.
    static func renamedAttribute(_ pair: AttributePair) -> InferenceFindings {
        renamedProperty(.attributeRenamed, "attribute", pair.source.name, pair.destination.name,
                        renamingIdentifier: pair.destination.renamingIdentifier, sourceEntity: pair.sourceEntity, entity: pair.entity,
                        location: pair.location)
    }

    /// A matched relationship under another name (its renaming identifier): Core Data infers the rename.
    static func renamedRelationship(_ pair: RelationshipPair) -> InferenceFindings {
        renamedProperty(.relationshipRenamed, "relationship", pair.source.name, pair.destination.name,
                        renamingIdentifier: pair.destination.renamingIdentifier, sourceEntity: pair.sourceEntity, entity: pair.entity,
                        location: pair.location)
    }

    private static func renamedProperty(_ kind: ModelChange.Kind, _ what: String, _ old: String, _ new: String, renamingIdentifier: String?,
                                        sourceEntity: String, entity: String, location: SourceLocation?) -> InferenceFindings {
        guard old != new else { return [] }
        return [entityMatching.change(
            kind, entity: entity, property: new,
            detail: "\(what) '\(sourceEntity).\(old)' is renamed to '\(entity).\(new)' (renaming identifier '\(key(name: new, renamingIdentifier: renamingIdentifier))')",
            verdict: .inferable, location: location)]
    }

    /// An entity's key.
    static func entityKey(_ view: ResolvedEntityView) -> String {
        key(name: view.entity.name, renamingIdentifier: view.entity.renamingIdentifier)
    }

    /// The key Core Data gives an entity or property: its renaming identifier, else its name.
    package static func key(name: String, renamingIdentifier: String?) -> String {
        if let renamingIdentifier, !renamingIdentifier.isEmpty { return renamingIdentifier }
        return name
    }
}

/// Pairs destinations with sources as Core Data does (§4.1, §4.2): each side keyed by renaming
/// identifier, else name; exact key equality; the first source of a key wins (a duplicate source
/// key is a CP212 finding of its own), and several destinations may take the same source.
enum Matcher {
    static func match(sources: [(name: String, renamingIdentifier: String?)],
                      destinations: [(name: String, renamingIdentifier: String?)]) -> [(Int, Int)] {
        var byKey: [String: Int] = [:]
        for (index, source) in sources.enumerated() {
            let key = InferenceRules.key(name: source.name, renamingIdentifier: source.renamingIdentifier)
            if byKey[key] == nil { byKey[key] = index }
        }
        return destinations.enumerated().compactMap { index, destination in
            byKey[InferenceRules.key(name: destination.name, renamingIdentifier: destination.renamingIdentifier)].map { ($0, index) }
        }
    }
}
