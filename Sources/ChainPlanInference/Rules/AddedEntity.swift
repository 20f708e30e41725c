import ChainPlanCore
import ChainPlanReaders

extension InferenceRules {
    /// §4.1: an unmatched destination entity gets an Add mapping (an empty table).
    package static let addedEntity = InferenceRule(
        id: "add-entity",
        checks: "A destination entity no source entity is keyed like: Core Data adds it, empty",
        basis: .coreDataBuilder,
        examples: [
            example("an entity is added", entity("Note"), entity("Note") + entity("Tag", attribute("name", "String")), .inferred),
        ])
}

extension InferenceRules {
    /// An unmatched destination entity. Its rows are all new: no mandatory property can lack a value.
    static func entityAdded(_ new: ResolvedEntityView, files: StepFiles) -> ModelChange {
        addedEntity.change(.entityAdded, entity: new.entity.name, detail: "entity '\(new.entity.name)' is added",
                           verdict: .inferable, location: files.destination(new.entity.line, new.entity.column))
    }
}
