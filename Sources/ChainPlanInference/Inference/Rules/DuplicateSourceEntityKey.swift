extension InferenceRules {
    /// §4.1: two source entities with one key make the builder fail.
    public static let duplicateSourceEntityKey = InferenceRule(
        id: "duplicate-source-entity-key",
        checks: "Two source entities share a key (renaming identifier or name): the builder fails with 134190 "
            + "\"Each source entity must have a unique renaming identifier\" (the app sees 134140)",
        basis: .coreDataBuilder, code: .duplicateRenamingIdentifier,
        examples: [
            InferenceRuleExample("an entity's identifier equals another entity's name",
                                 entity("Note", attribute("title", "String")) + entity("Memo", attribute("text", "String"), "elementID=\"Note\""),
                                 entity("Note", attribute("title", "String"), "") + entity("Memo", attribute("text", "String") + attribute("x", "String")),
                                 .refused),
            InferenceRuleExample("distinct keys", entity("Note", attribute("title", "String")) + entity("Memo"),
                                 entity("Note", attribute("title", "String")) + entity("Memo", attribute("text", "String")),
                                 .inferred, fires: false),
        ])
}
