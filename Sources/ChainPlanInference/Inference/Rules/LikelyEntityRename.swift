extension InferenceRules {
    /// A heuristic: a removed and an added entity with similar attributes look like a rename that
    /// lacks its renaming identifier. Core Data does not guess: it removes and adds.
    public static let likelyEntityRename = InferenceRule(
        id: "likely-entity-rename",
        checks: "An entity is removed and another added with mostly the same attributes: it looks like a rename, "
            + "but without the renaming identifier Core Data drops and re-adds it and every row is deleted",
        basis: .coreDataBuilder, code: .renameWithoutIdentifier,
        examples: [
            InferenceRuleExample("renamed without a renaming identifier",
                                 entity("Amount", attribute("value", "Double") + attribute("name", "String")),
                                 entity("Unit", attribute("value", "Double") + attribute("name", "String")), .inferred),
            InferenceRuleExample("renamed with it",
                                 entity("Amount", attribute("value", "Double") + attribute("name", "String")),
                                 entity("Unit", attribute("value", "Double") + attribute("name", "String"), "elementID=\"Amount\""),
                                 .inferred, fires: false),
        ])
}
