extension InferenceRules {
    /// §4.2: a source property no destination property is keyed like is not migrated.
    public static let removedProperty = InferenceRule(
        id: "remove-property",
        checks: "A stored attribute or relationship no destination property is keyed like: its values or links are deleted "
            + "(an attribute of an abstract entity that every subentity keeps moves down with its values)",
        basis: .coreDataBuilder, code: .dataRemoved,
        examples: [
            InferenceRuleExample("an attribute is removed", entity("Note", attribute("title", "String") + attribute("body", "String")),
                                 entity("Note", attribute("title", "String")), .inferred),
        ])
}
