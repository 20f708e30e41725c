extension InferenceRules {
    /// §4.2: external binary storage can be turned on by inference, not off.
    public static let externalStorage = InferenceRule(
        id: "external-storage",
        checks: "A matched attribute's external binary storage: off → on infers; on → off fails with 134190 "
            + "\"Unable to use inferred mapping to move external reference into store.\"",
        basis: .coreDataBuilder, code: .notInferable,
        examples: [
            InferenceRuleExample("turned off", entity("Photo", attribute("data", "Binary", "optional=\"YES\" allowsExternalBinaryDataStorage=\"YES\"")),
                                 entity("Photo", attribute("data", "Binary")), .refused),
            InferenceRuleExample("turned on", entity("Photo", attribute("data", "Binary")),
                                 entity("Photo", attribute("data", "Binary", "optional=\"YES\" allowsExternalBinaryDataStorage=\"YES\"")), .inferred),
        ])
}
