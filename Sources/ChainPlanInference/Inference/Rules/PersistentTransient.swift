extension InferenceRules {
    /// §4.2: transient destination properties are skipped; transient source ones are not sources.
    public static let persistentTransient = InferenceRule(
        id: "persistent-transient",
        checks: "A stored property becomes transient (its column is dropped and the values deleted) or a transient one becomes "
            + "stored (an empty column is added, judged like a new property)",
        basis: .coreDataBuilder, code: .dataRemoved,
        examples: [
            InferenceRuleExample("persistent to transient", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String", "optional=\"YES\" transient=\"YES\"")), .inferred),
            InferenceRuleExample("transient to persistent", entity("Note", attribute("title", "String", "optional=\"YES\" transient=\"YES\"")),
                                 entity("Note", attribute("title", "String")), .inferred),
        ])
}
