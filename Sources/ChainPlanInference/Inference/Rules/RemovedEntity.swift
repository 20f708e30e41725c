extension InferenceRules {
    /// §4.1: an unmatched source entity gets a Remove mapping.
    public static let removedEntity = InferenceRule(
        id: "remove-entity",
        checks: "A source entity no destination entity is keyed like: Core Data removes it and deletes all its rows",
        basis: .coreDataBuilder, code: .dataRemoved,
        examples: [
            InferenceRuleExample("an entity is removed", entity("Note") + entity("Tag", attribute("name", "String")),
                                 entity("Note"), .inferred),
            InferenceRuleExample("an entity is kept", entity("Note") + entity("Tag", attribute("name", "String")),
                                 entity("Note", attribute("title", "String")) + entity("Tag", attribute("name", "String")), .inferred, fires: false),
        ])
}
