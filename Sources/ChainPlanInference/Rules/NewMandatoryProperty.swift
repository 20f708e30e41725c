import ChainPlanCore
import ChainPlanReaders

extension InferenceRules {
    /// §4.2: new properties infer; a mandatory one without a default is flagged "could fail validation".
    package static let newMandatoryProperty = InferenceRule(
        id: "new-property",
        checks: "A destination property with no source: optional, defaulted, derived or transient ones infer; a mandatory attribute "
            + "or relationship without a default infers but is flagged \"could fail validation\": the migration fails (134110) "
            + "as soon as the entity has a row, and an empty table migrates",
        basis: .coreDataBuilder,
        examples: [
            example("mandatory attribute without a default", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String") + attribute("pinned", "Boolean", "")), .validation),
            example("mandatory attribute with a default", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String") + attribute("pinned", "Boolean", "defaultValueString=\"NO\"")), .inferred),
            example("mandatory to-one relationship", entity("Note") + entity("Folder"),
                    entity("Note", toOne("folder", "Folder", "")) + entity("Folder"), .validation),
            example("optional to-one with a minimum count (Xcode 4–7)", entity("Note") + entity("Folder"),
                    entity("Note", toOne("folder", "Folder", "optional=\"YES\" minCount=\"1\"")) + entity("Folder"), .inferred),
            example("non-optional to-many without a minimum count", entity("Note") + entity("Tag"),
                    entity("Note", toMany("tags", "Tag", "")) + entity("Tag"), .inferred),
            example("non-optional to-many with a minimum count", entity("Note") + entity("Tag"),
                    entity("Note", toMany("tags", "Tag", "minCount=\"1\"")) + entity("Tag"), .validation),
            example("optional attribute", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String") + attribute("body", "String")), .inferred),
        ])
}

extension InferenceRules {
    /// A destination property of a matched entity with no source (and not a transient one made
    /// stored, which `becameStored` reports).
    static func addedProperty(_ property: StoredProperty, sourceEntity: String, entity: String, files: StepFiles) -> InferenceFindings {
        let description: String
        switch property {
        case .attribute(let a):
            let why = a.isOptional ? "optional" : a.isDerived ? "derived" : a.hasDefaultValue ? "with a default value" : "mandatory, no default"
            description = "attribute '\(entity).\(a.name)' is added (\(why))"
        case .relationship(let r):
            description = "relationship '\(entity).\(r.name)' is added" + (r.isMandatory ? " (mandatory)" : "")
        }
        return InferenceFindings(
            changes: [newMandatoryProperty.change(
                property.isAttribute ? .attributeAdded : .relationshipAdded, entity: entity, property: property.name,
                detail: description, verdict: .inferable, location: files.destination(property.line, property.column))],
            validation: newPropertyCheck(property, sourceEntity: sourceEntity, entity: entity).map { [$0] } ?? [])
    }

    /// A new property of a matched entity, mandatory without a default: the check that the
    /// entity has no row ("could fail validation").
    static func newPropertyCheck(_ property: StoredProperty, sourceEntity: String, entity: String) -> ValidationCheck? {
        switch property {
        case .attribute(let a) where !a.isOptional && !a.hasDefaultValue && !a.isDerived:
            ValidationCheck(entity: entity, property: a.name, kind: .attribute, reason: .newMandatory, sourceEntity: sourceEntity, sourceProperty: nil)
        case .relationship(let r) where r.isMandatory:
            ValidationCheck(entity: entity, property: r.name, kind: .relationship, reason: .newMandatory, sourceEntity: sourceEntity,
                            sourceProperty: nil, toMany: r.isToMany)
        default:
            nil
        }
    }
}
