import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP209 DataRemoved: a step drops an entity or attribute.
    ///
    /// Raised by the inference rules below: remove-entity, remove-property and persistent-transient.
    package static let dataRemoved = DiagnosticCode(
        "CP209", name: "DataRemoved", severity: .note,
        summary: "A step drops an entity or attribute",
        help: "The data stored in it is deleted by the migration. Intended or not, a reviewer should know.",
        examples: [
            .versions("an attribute is removed", versions: [RuleExampleFixtures.pinnedWithDefault, RuleExampleFixtures.note], expected: 1),
            .versions("an attribute is added", versions: [RuleExampleFixtures.note, RuleExampleFixtures.pinnedWithDefault], expected: 0),
        ])
}
extension InferenceRules {
    /// §4.1: an unmatched source entity gets a Remove mapping.
    package static let removedEntity = InferenceRule(
        id: "remove-entity",
        checks: "A source entity no destination entity is keyed like: Core Data removes it and deletes all its rows",
        basis: .coreDataBuilder, code: .dataRemoved,
        examples: [
            example("an entity is removed", entity("Note") + entity("Tag", attribute("name", "String")),
                    entity("Note"), .inferred),
            example("an entity is kept", entity("Note") + entity("Tag", attribute("name", "String")),
                    entity("Note", attribute("title", "String")) + entity("Tag", attribute("name", "String")), .inferred, fires: false),
        ])
}
extension InferenceRules {
    /// §4.2: a source property no destination property is keyed like is not migrated.
    package static let removedProperty = InferenceRule(
        id: "remove-property",
        checks: "A stored attribute or relationship no destination property is keyed like: its values or links are deleted "
            + "(an attribute of an abstract entity that every subentity keeps moves down with its values)",
        basis: .coreDataBuilder, code: .dataRemoved,
        examples: [
            example("an attribute is removed", entity("Note", attribute("title", "String") + attribute("body", "String")),
                    entity("Note", attribute("title", "String")), .inferred),
        ])
}
extension InferenceRules {
    /// §4.2: transient destination properties are skipped; transient source ones are not sources.
    package static let persistentTransient = InferenceRule(
        id: "persistent-transient",
        checks: "A stored property becomes transient (its column is dropped and the values deleted) or a transient one becomes "
            + "stored (an empty column is added, judged like a new property)",
        basis: .coreDataBuilder, code: .dataRemoved,
        examples: [
            example("persistent to transient", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String", "optional=\"YES\" transient=\"YES\"")), .inferred),
            example("transient to persistent", entity("Note", attribute("title", "String", "optional=\"YES\" transient=\"YES\"")),
                    entity("Note", attribute("title", "String")), .inferred),
        ])
}

extension InferenceRules {
    /// An unmatched source entity: its rows are deleted. `explained`: a likely rename already
    /// reports it (CP202), so this change raises no finding of its own.
    static func entityRemoved(_ gone: ResolvedEntityView, explained: Bool, files: StepFiles) -> ModelChange {
        removedEntity.change(
            .entityRemoved, entity: gone.entity.name,
            detail: "entity '\(gone.entity.name)' is removed; its rows are deleted",
            verdict: .dataLoss, code: explained ? .some(nil) : nil, location: files.source(gone.entity.line, gone.entity.column))
    }

    /// An unmatched stored source property. `explained`: another finding names the cause;
    /// `movesDown`: an abstract entity's attribute that every subentity keeps (`movesDown(_:from:…)`).
    static func propertyRemoved(_ property: StoredProperty, sourceEntity: String, entity: String, explained: Bool, movesDown: Bool,
                                files: StepFiles) -> ModelChange {
        let location = files.source(property.line, property.column)
        switch property {
        case .attribute(let a) where movesDown:
            // An abstract entity has no rows of its own: its values live in its subentities, which keep the attribute.
            return removedProperty.change(
                .attributeRemoved, entity: entity, property: a.name,
                detail: "attribute '\(sourceEntity).\(a.name)' moves down into the subentities of abstract '\(sourceEntity)', which keep its values",
                verdict: .inferable, code: .some(nil), location: location)
        case .attribute(let a):
            return removedProperty.change(
                .attributeRemoved, entity: entity, property: a.name,
                detail: "attribute '\(sourceEntity).\(a.name)' is removed; its values are deleted",
                verdict: .dataLoss, code: explained ? .some(nil) : nil, location: location)
        case .relationship(let r):
            return removedProperty.change(
                .relationshipRemoved, entity: entity, property: r.name,
                detail: "relationship '\(sourceEntity).\(r.name)' is removed; its links are deleted",
                verdict: .inferable, code: .some(nil), location: location)
        }
    }

    /// True when every concrete entity below `entity` in the source keeps a stored attribute
    /// `name` in the entity its rows go to (`lineage`), so removing it from `entity` moves it down.
    static func movesDown(_ name: String, from entity: String, source: ResolvedView, destination: ResolvedView,
                          lineage: [String: String]) -> Bool {
        let below = source.entities.filter { candidate in
            !candidate.entity.isAbstract && candidate.entity.name != entity && source.isKind(candidate.entity.name, of: entity)
        }
        return !below.isEmpty && below.allSatisfy { child in
            guard let mapped = lineage[child.entity.name], let kept = destination.entity(mapped) else { return false }
            return kept.attributes.contains { $0.name == name && !$0.isTransient }
        }
    }

    /// An unmatched stored source property whose key is transient in the destination: its
    /// column is dropped (located at the transient property).
    static func becameTransient(_ property: StoredProperty, destinationTransients: [String: StoredProperty], sourceEntity: String, entity: String,
                                files: StepFiles) -> ModelChange? {
        guard let transient = destinationTransients[property.key] else { return nil }
        return persistentTransient.change(
            .transientChanged, entity: entity, property: property.name,
            detail: "\(property.kind) '\(sourceEntity).\(property.name)' becomes transient: its column is dropped and the stored values are deleted",
            verdict: .dataLoss, location: files.destination(transient.line, transient.column))
    }

    /// An unmatched destination property whose key was transient in the source: an empty column,
    /// judged like a new property.
    static func becameStored(_ property: StoredProperty, sourceEntity: String, entity: String, files: StepFiles) -> InferenceFindings {
        InferenceFindings(
            changes: [persistentTransient.change(
                .transientChanged, entity: entity, property: property.name,
                detail: "\(property.kind) '\(entity).\(property.name)' becomes stored: an empty column is added", verdict: .inferable,
                code: .some(nil), location: files.destination(property.line, property.column))],
            validation: newPropertyCheck(property, sourceEntity: sourceEntity, entity: entity).map { [$0] } ?? [])
    }
}
