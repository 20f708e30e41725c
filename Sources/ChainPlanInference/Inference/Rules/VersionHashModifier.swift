extension InferenceRules {
    /// §1.2, §1.5: a version hash modifier is a hash input and nothing else.
    public static let versionHashModifier = InferenceRule(
        id: "version-hash-modifier",
        checks: "An entity's or property's version hash modifier changes: the hash changes and a migration runs; nothing else differs",
        basis: .coreDataBuilder,
        examples: [
            InferenceRuleExample("a property's modifier changes", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String", "optional=\"YES\" versionHashModifier=\"2\"")), .inferred),
        ])
}
