extension InferenceRules {
    /// §4.2: an optional attribute or relationship becoming mandatory infers; without a default
    /// the mapping is flagged "could fail validation".
    public static let optionalToMandatory = InferenceRule(
        id: "optional-to-mandatory",
        checks: "A matched attribute or relationship becomes mandatory: with a default value NULLs become the default; without one "
            + "the step infers but is flagged \"could fail validation\": the migration fails (134110) on stores where a row has no value",
        basis: .coreDataBuilder,
        examples: [
            InferenceRuleExample("attribute without a default", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String", "")), .validation),
            InferenceRuleExample("attribute with a default", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String", "defaultValueString=\"\"")), .inferred),
            InferenceRuleExample("to-one relationship", entity("Note", toOne("folder", "Folder")) + entity("Folder"),
                                 entity("Note", toOne("folder", "Folder", "")) + entity("Folder"), .validation),
            InferenceRuleExample("optional to-one gains a minimum count (still optional)", entity("Note", toOne("folder", "Folder")) + entity("Folder"),
                                 entity("Note", toOne("folder", "Folder", "optional=\"YES\" minCount=\"1\"")) + entity("Folder"), .inferred, fires: false),
            InferenceRuleExample("mandatory becomes optional", entity("Note", attribute("title", "String", "")),
                                 entity("Note", attribute("title", "String")), .inferred),
        ])
}
