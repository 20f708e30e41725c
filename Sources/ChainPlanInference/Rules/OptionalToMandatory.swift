import ChainPlanCore
import ChainPlanReaders

extension InferenceRules {
    /// §4.2: an optional attribute or relationship becoming mandatory infers; without a default
    /// the mapping is flagged "could fail validation".
    package static let optionalToMandatory = InferenceRule(
        id: "optional-to-mandatory",
        checks: "A matched attribute or relationship becomes mandatory: with a default value NULLs become the default; without one "
            + "the step infers but is flagged \"could fail validation\": the migration fails (134110) on stores where a row has no value",
        basis: .coreDataBuilder,
        examples: [
            example("attribute without a default", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String", "")), .validation),
            example("attribute with a default", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String", "defaultValueString=\"\"")), .inferred),
            example("to-one relationship", entity("Note", toOne("folder", "Folder")) + entity("Folder"),
                    entity("Note", toOne("folder", "Folder", "")) + entity("Folder"), .validation),
            example("optional to-one gains a minimum count (still optional)", entity("Note", toOne("folder", "Folder")) + entity("Folder"),
                    entity("Note", toOne("folder", "Folder", "optional=\"YES\" minCount=\"1\"")) + entity("Folder"), .inferred, fires: false),
            example("mandatory becomes optional", entity("Note", attribute("title", "String", "")),
                    entity("Note", attribute("title", "String")), .inferred),
        ])
}

extension InferenceRules {
    /// A matched attribute's optionality changes. Becoming mandatory without a default (or a
    /// derivation) adds the check that no stored row lacks a value.
    static func attributeOptionality(_ pair: AttributePair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        guard a.isOptional != b.isOptional else { return [] }
        func change(_ detail: String) -> ModelChange {
            optionalToMandatory.change(.optionalityChanged, entity: pair.entity, property: b.name, detail: detail, verdict: .inferable,
                                       location: pair.location)
        }
        if b.isOptional { return [change("attribute \(pair.label) becomes optional")] }
        if b.hasDefaultValue || b.isDerived {
            return [change("attribute \(pair.label) becomes mandatory with a default value (missing values take it)")]
        }
        return InferenceFindings(
            changes: [change("attribute \(pair.label) becomes mandatory without a default value")],
            validation: [ValidationCheck(entity: pair.entity, property: b.name, kind: .attribute, reason: .optionalToMandatory,
                                         sourceEntity: pair.sourceEntity, sourceProperty: a.name)])
    }

    /// True when a matched relationship becomes mandatory (§4.2, "What mandatory means").
    static func becomesMandatory(_ pair: RelationshipPair) -> Bool {
        pair.destination.isMandatory && !pair.source.isMandatory
    }

    /// A matched relationship becomes mandatory: the check that every stored row has a link.
    static func relationshipOptionality(_ pair: RelationshipPair) -> InferenceFindings {
        guard countsChange(pair), becomesMandatory(pair) else { return [] }
        let b = pair.destination
        return InferenceFindings(
            changes: [optionalToMandatory.change(.countChanged, entity: pair.entity, property: b.name,
                                                 detail: "relationship \(pair.label) becomes mandatory", verdict: .inferable, location: pair.location)],
            validation: [ValidationCheck(entity: pair.entity, property: b.name, kind: .relationship, reason: .optionalToMandatory,
                                         sourceEntity: pair.sourceEntity, sourceProperty: pair.source.name, toMany: b.isToMany)])
    }
}
