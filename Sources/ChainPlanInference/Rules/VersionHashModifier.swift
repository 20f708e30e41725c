import ChainPlanCore
import ChainPlanReaders

extension InferenceRules {
    /// §1.2, §1.5: a version hash modifier is a hash input and nothing else.
    package static let versionHashModifier = InferenceRule(
        id: "version-hash-modifier",
        checks: "An entity's or property's version hash modifier changes: the hash changes and a migration runs; nothing else differs",
        basis: .coreDataBuilder,
        examples: [
            example("a property's modifier changes", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String", "optional=\"YES\" versionHashModifier=\"2\"")), .inferred),
        ])
}

extension InferenceRules {
    /// A matched entity's version hash modifier changes.
    static func entityHashModifier(_ pair: EntityPair) -> InferenceFindings {
        guard (pair.source.entity.versionHashModifier ?? "") != (pair.destination.entity.versionHashModifier ?? "") else { return [] }
        let name = pair.destination.entity.name
        return [versionHashModifier.change(
            .hashModifierChanged, entity: name, detail: "entity '\(name)' changes its version hash modifier, forcing a migration",
            verdict: .inferable, location: pair.location)]
    }

    /// A matched attribute's version hash modifier changes.
    static func attributeHashModifier(_ pair: AttributePair) -> InferenceFindings {
        propertyHashModifier("attribute", pair.source.versionHashModifier, pair.destination.versionHashModifier,
                             entity: pair.entity, name: pair.destination.name, location: pair.location)
    }

    /// A matched relationship's version hash modifier changes.
    static func relationshipHashModifier(_ pair: RelationshipPair) -> InferenceFindings {
        propertyHashModifier("relationship", pair.source.versionHashModifier, pair.destination.versionHashModifier,
                             entity: pair.entity, name: pair.destination.name, location: pair.location)
    }

    private static func propertyHashModifier(_ what: String, _ old: String?, _ new: String?, entity: String, name: String,
                                             location: SourceLocation?) -> InferenceFindings {
        guard (old ?? "") != (new ?? "") else { return [] }
        return [versionHashModifier.change(
            .hashModifierChanged, entity: entity, property: name,
            detail: "\(what) '\(entity).\(name)' changes its version hash modifier, forcing a migration", verdict: .inferable, location: location)]
    }
}
