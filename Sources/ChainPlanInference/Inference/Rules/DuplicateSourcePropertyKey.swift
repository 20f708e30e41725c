extension InferenceRules {
    /// §4.2: two stored properties of one source entity (inherited ones included) with one key
    /// make the builder fail. Duplicate destination keys do not: both take the same source.
    public static let duplicateSourcePropertyKey = InferenceRule(
        id: "duplicate-source-property-key",
        checks: "Two stored properties of one source entity share a key, typically a property renamed with the old name as identifier "
            + "and a new one re-added under the old name in the version before: the builder fails with 134190 "
            + "\"Each property must have a unique renaming identifier\" (duplicate destination keys are accepted: both take the same values)",
        basis: .coreDataBuilder, code: .duplicateRenamingIdentifier,
        examples: [
            InferenceRuleExample("the version that renamed and re-added is the source",
                                 entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"") + attribute("fecha", "Date")),
                                 entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"") + attribute("fecha", "Date")
                                    + attribute("body", "String")), .refused),
            InferenceRuleExample("rename, then re-add the old name (destination duplicates are accepted)",
                                 entity("Note", attribute("fecha", "Date")),
                                 entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"") + attribute("fecha", "Date")),
                                 .inferred, fires: false),
        ])
}
