extension InferenceRules {
    /// §4.2, matched relationships: the builder refuses to map a to-many onto a to-one.
    public static let toManyToToOne = InferenceRule(
        id: "to-many-to-to-one",
        checks: "A matched relationship goes from to-many to to-one: the builder fails with 134190 "
            + "\"Can not map from a to-many to a to-one relationship\"",
        basis: .coreDataBuilder, code: .notInferable,
        examples: [
            InferenceRuleExample("to-many becomes to-one", entity("Note", toMany("tags", "Tag")) + entity("Tag"),
                                 entity("Note", toOne("tags", "Tag")) + entity("Tag"), .refused),
            InferenceRuleExample("to-one becomes to-many", entity("Note", toOne("tags", "Tag")) + entity("Tag"),
                                 entity("Note", toMany("tags", "Tag")) + entity("Tag"), .inferred, fires: false),
        ])
}
