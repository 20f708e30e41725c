extension InferenceRules {
    /// §4.2: new properties infer; a mandatory one without a default is flagged "could fail validation".
    public static let newMandatoryProperty = InferenceRule(
        id: "new-property",
        checks: "A destination property with no source: optional, defaulted, derived or transient ones infer; a mandatory attribute "
            + "or relationship without a default infers but is flagged \"could fail validation\": the migration fails (134110) "
            + "as soon as the entity has a row, and an empty table migrates",
        basis: .coreDataBuilder,
        examples: [
            InferenceRuleExample("mandatory attribute without a default", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String") + attribute("pinned", "Boolean", "")), .validation),
            InferenceRuleExample("mandatory attribute with a default", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String") + attribute("pinned", "Boolean", "defaultValueString=\"NO\"")), .inferred),
            InferenceRuleExample("mandatory to-one relationship", entity("Note") + entity("Folder"),
                                 entity("Note", toOne("folder", "Folder", "")) + entity("Folder"), .validation),
            InferenceRuleExample("optional to-one with a minimum count (Xcode 4–7)", entity("Note") + entity("Folder"),
                                 entity("Note", toOne("folder", "Folder", "optional=\"YES\" minCount=\"1\"")) + entity("Folder"), .inferred),
            InferenceRuleExample("non-optional to-many without a minimum count", entity("Note") + entity("Tag"),
                                 entity("Note", toMany("tags", "Tag", "")) + entity("Tag"), .inferred),
            InferenceRuleExample("non-optional to-many with a minimum count", entity("Note") + entity("Tag"),
                                 entity("Note", toMany("tags", "Tag", "minCount=\"1\"")) + entity("Tag"), .validation),
            InferenceRuleExample("optional attribute", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String") + attribute("body", "String")), .inferred),
        ])
}
