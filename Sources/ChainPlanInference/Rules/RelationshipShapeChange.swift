import ChainPlanCore
import ChainPlanReaders

extension InferenceRules {
    /// §4.2, matched relationships: changes of cardinality upwards, order, inverse and counts infer.
    package static let relationshipShapeChange = InferenceRule(
        id: "relationship-shape-change",
        checks: "A matched relationship goes from to-one to to-many, becomes ordered or unordered, or changes its inverse or count "
            + "limits: inferred, the links kept",
        basis: .coreDataBuilder,
        examples: [
            example("to-one to to-many", entity("Note", toOne("tags", "Tag")) + entity("Tag"),
                    entity("Note", toMany("tags", "Tag")) + entity("Tag"), .inferred),
            example("becomes ordered", entity("Note", toMany("tags", "Tag")) + entity("Tag"),
                    entity("Note", toMany("tags", "Tag", "optional=\"YES\" ordered=\"YES\"")) + entity("Tag"), .inferred),
        ])
}

extension InferenceRules {
    /// A matched relationship goes from to-one to to-many, or a to-many one becomes ordered or
    /// unordered (to-many to to-one is `toManyBecomesToOne`).
    static func relationshipCardinality(_ pair: RelationshipPair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        if !a.isToMany, b.isToMany {
            return [relationshipShapeChange.change(.cardinalityChanged, entity: pair.entity, property: b.name,
                                                   detail: "relationship \(pair.label) changes from to-one to to-many",
                                                   verdict: .inferable, location: pair.location)]
        }
        guard a.isToMany, b.isToMany, a.isOrdered != b.isOrdered else { return [] }
        return [relationshipShapeChange.change(.orderingChanged, entity: pair.entity, property: b.name,
                                               detail: "relationship \(pair.label) becomes \(b.isOrdered ? "ordered" : "unordered")",
                                               verdict: .inferable, location: pair.location)]
    }

    /// True when a matched relationship's optionality or count limits change (a maximum count
    /// only counts while the cardinality stays).
    static func countsChange(_ pair: RelationshipPair) -> Bool {
        let (a, b) = (pair.source, pair.destination)
        return a.isOptional != b.isOptional || a.minCount != b.minCount || (a.hashedMaxCount != b.hashedMaxCount && a.isToMany == b.isToMany)
    }

    /// A matched relationship's optionality or count limits change without making it mandatory
    /// (that is `relationshipOptionality`).
    static func relationshipCounts(_ pair: RelationshipPair) -> InferenceFindings {
        guard countsChange(pair), !becomesMandatory(pair) else { return [] }
        return [relationshipShapeChange.change(
            .countChanged, entity: pair.entity, property: pair.destination.name,
            detail: "relationship \(pair.label) changes its optionality or count limits", verdict: .inferable, location: pair.location)]
    }

    /// A matched relationship changes its inverse.
    static func relationshipInverse(_ pair: RelationshipPair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        guard (a.inverseName ?? "") != (b.inverseName ?? "") else { return [] }
        return [relationshipShapeChange.change(
            .inverseChanged, entity: pair.entity, property: b.name,
            detail: "relationship \(pair.label) changes its inverse from '\(a.inverseName ?? "none")' to '\(b.inverseName ?? "none")'",
            verdict: .inferable, location: pair.location)]
    }
}
