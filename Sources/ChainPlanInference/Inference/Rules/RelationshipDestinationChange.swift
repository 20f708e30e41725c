extension InferenceRules {
    /// §4.2: the builder does not compare a relationship's destination entity; what the
    /// migration does with the existing links is [open].
    public static let relationshipDestinationChange = InferenceRule(
        id: "relationship-destination-change",
        checks: "A matched relationship points at another entity: the builder does not compare destinations and infers the step, "
            + "but what the migration does with the existing links is unverified",
        basis: .unverified, code: .unverifiedChange,
        examples: [
            InferenceRuleExample("points at an unrelated surviving entity",
                                 entity("A", toOne("b", "B")) + entity("B") + entity("C"),
                                 entity("A", toOne("b", "C")) + entity("B") + entity("C"), .inferred),
            InferenceRuleExample("points at the renamed old destination",
                                 entity("A", toOne("b", "B")) + entity("B", attribute("x", "String")),
                                 entity("A", toOne("b", "Bee")) + entity("Bee", attribute("x", "String"), "elementID=\"B\""), .inferred, fires: false),
        ])
}
