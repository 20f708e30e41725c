extension InferenceRules {
    /// §4.1: an unmatched destination entity gets an Add mapping (an empty table).
    public static let addedEntity = InferenceRule(
        id: "add-entity",
        checks: "A destination entity no source entity is keyed like: Core Data adds it, empty",
        basis: .coreDataBuilder,
        examples: [
            InferenceRuleExample("an entity is added", entity("Note"), entity("Note") + entity("Tag", attribute("name", "String")), .inferred),
        ])
}
