extension InferenceRules {
    /// §1.3–§1.5, §1.10: what no entity hash covers moves no store; Core Data runs no migration
    /// for it. Delete rules and transient properties are not even listed as changes.
    public static let notHashed = InferenceRule(
        id: "not-hashed",
        checks: "Default values, indexes, value transformers and class names, delete rules, renaming identifiers and transient "
            + "properties are not hash inputs: changing only them runs no migration (a transformer change is still worth a look: "
            + "nothing converts the stored bytes)",
        basis: .coreDataBuilder, code: .unverifiedChange,
        examples: [
            InferenceRuleExample("delete rule", entity("Note", toOne("tag", "Tag")) + entity("Tag"),
                                 entity("Note", toOne("tag", "Tag").replacingOccurrences(of: "Nullify", with: "Cascade")) + entity("Tag"),
                                 .none, fires: false),
            InferenceRuleExample("a transient attribute is added", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String") + attribute("cache", "String", "transient=\"YES\"")), .none, fires: false),
            InferenceRuleExample("a renaming identifier alone", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String"), "elementID=\"Memo\""), .none),
            InferenceRuleExample("a default value", entity("Note", attribute("n", "Integer 16", "optional=\"YES\" defaultValueString=\"0\"")),
                                 entity("Note", attribute("n", "Integer 16", "optional=\"YES\" defaultValueString=\"1\"")), .none),
        ])
}
