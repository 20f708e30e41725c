extension InferenceRules {
    /// §4.3: the builder never examines parents or abstract flags, so a hierarchy change infers;
    /// Apple documents hierarchy merges as unsupported and what the SQL does is [open].
    public static let hierarchyChange = InferenceRule(
        id: "hierarchy-change",
        checks: "An entity changes its parent or becomes abstract or concrete (a hierarchy merge included): the builder does not "
            + "check hierarchies and infers the step, but how the rows are moved is unverified (Apple documents merges as unsupported)",
        basis: .unverified, code: .hierarchyChange,
        examples: [
            InferenceRuleExample("two separate entities get a common parent",
                                 entity("Car", attribute("wheels", "Integer 16")) + entity("Boat", attribute("keel", "Integer 16")),
                                 entity("Vehicle", "", "isAbstract=\"YES\"") + entity("Car", attribute("wheels", "Integer 16"), "parentEntity=\"Vehicle\"")
                                    + entity("Boat", attribute("keel", "Integer 16"), "parentEntity=\"Vehicle\""), .inferred),
            InferenceRuleExample("an entity becomes abstract", entity("Car", attribute("wheels", "Integer 16")),
                                 entity("Car", attribute("wheels", "Integer 16"), "isAbstract=\"YES\""), .inferred),
            InferenceRuleExample("the hierarchy is unchanged",
                                 entity("Vehicle") + entity("Car", attribute("wheels", "Integer 16"), "parentEntity=\"Vehicle\""),
                                 entity("Vehicle") + entity("Car", attribute("wheels", "Integer 32"), "parentEntity=\"Vehicle\""),
                                 .inferred, fires: false),
        ])
}
