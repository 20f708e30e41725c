extension InferenceRules {
    /// §4.2, matched relationships: changes of cardinality upwards, order, inverse and counts infer.
    public static let relationshipShapeChange = InferenceRule(
        id: "relationship-shape-change",
        checks: "A matched relationship goes from to-one to to-many, becomes ordered or unordered, or changes its inverse or count "
            + "limits: inferred, the links kept",
        basis: .coreDataBuilder,
        examples: [
            InferenceRuleExample("to-one to to-many", entity("Note", toOne("tags", "Tag")) + entity("Tag"),
                                 entity("Note", toMany("tags", "Tag")) + entity("Tag"), .inferred),
            InferenceRuleExample("becomes ordered", entity("Note", toMany("tags", "Tag")) + entity("Tag"),
                                 entity("Note", toMany("tags", "Tag", "optional=\"YES\" ordered=\"YES\"")) + entity("Tag"), .inferred),
        ])
}
