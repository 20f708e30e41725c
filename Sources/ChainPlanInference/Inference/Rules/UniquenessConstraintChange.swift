extension InferenceRules {
    /// §1.5, §5: an entity's own uniqueness constraints enter its hash, so changing them migrates;
    /// the rebuilt table's unique index fails when stored rows already share the values.
    public static let uniquenessConstraintChange = InferenceRule(
        id: "uniqueness-constraint-change",
        checks: "An entity's own uniqueness constraints change: its hash changes, so a migration runs; the builder ignores "
            + "constraints, but the rebuilt table's unique index fails the migration when rows already share the values",
        basis: .coreDataBuilder, code: .unverifiedChange,
        examples: [
            InferenceRuleExample("a constraint is added", entity("Note", attribute("title", "String")),
                                 entity("Note", attribute("title", "String")
                                    + "<uniquenessConstraints><uniquenessConstraint><constraint value=\"title\"/></uniquenessConstraint></uniquenessConstraints>"),
                                 .inferred),
        ])
}
