extension InferenceRules {
    /// §4.2: a destination key whose source is another kind (attribute, relationship, derived
    /// attribute) is treated as unmatched: drop + add, no error.
    public static let propertyKindMismatch = InferenceRule(
        id: "property-kind-mismatch",
        checks: "A property keeps its key but changes kind (attribute, relationship or derived attribute), or an attribute is replaced "
            + "by an entity of the same name: Core Data drops and re-adds it and the stored values are deleted",
        basis: .coreDataBuilder, code: .propertyKindChange,
        examples: [
            InferenceRuleExample("an attribute becomes a relationship", entity("Nota", attribute("categoria", "String")),
                                 entity("Nota", toOne("categoria", "Categoria")) + entity("Categoria", attribute("nombre", "String")), .inferred),
        ])
}
