extension InferenceRules {
    /// A heuristic: a removed and an added property of the same kind and type look like a rename
    /// that lacks its renaming identifier.
    public static let likelyPropertyRename = InferenceRule(
        id: "likely-property-rename",
        checks: "A property is removed and another of the same kind and type added: it looks like a rename, but without the renaming "
            + "identifier Core Data drops and re-adds it and the values are deleted",
        basis: .coreDataBuilder, code: .renameWithoutIdentifier,
        examples: [
            InferenceRuleExample("renamed without a renaming identifier", entity("Note", attribute("fecha", "Date")),
                                 entity("Note", attribute("momento", "Date")), .inferred),
            InferenceRuleExample("renamed with it", entity("Note", attribute("fecha", "Date")),
                                 entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"")), .inferred, fires: false),
            InferenceRuleExample("an identifier from an earlier rename does not chain",
                                 entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"")),
                                 entity("Note", attribute("instante", "Date", "optional=\"YES\" elementID=\"momento\"")), .inferred),
        ])
}
