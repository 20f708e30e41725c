extension InferenceRules {
    /// §4.1: two destination entities with one key make the builder fail (the "rename, then
    /// re-add the old name" pattern).
    public static let duplicateDestinationEntityKey = InferenceRule(
        id: "duplicate-destination-entity-key",
        checks: "Two destination entities share a key, e.g. an entity renamed with the old name as identifier while a new entity "
            + "takes the old name: the builder fails with 134190 \"Each destination entity must have a unique renaming identifier\"",
        basis: .coreDataBuilder, code: .duplicateRenamingIdentifier,
        examples: [
            InferenceRuleExample("rename, then re-add the old name",
                                 entity("Note", attribute("title", "String")),
                                 entity("Memo", attribute("title", "String"), "elementID=\"Note\"") + entity("Note", attribute("body", "String")),
                                 .refused),
            InferenceRuleExample("rename without re-adding",
                                 entity("Note", attribute("title", "String")),
                                 entity("Memo", attribute("title", "String"), "elementID=\"Note\""), .inferred, fires: false),
        ])
}
