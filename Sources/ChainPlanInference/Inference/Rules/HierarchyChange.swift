import ChainPlanCore

extension DiagnosticCode {
    /// CP205 HierarchyChange: an entity hierarchy changes (outcome unverified).
    public static let hierarchyChange = DiagnosticCode(
        "CP205", name: "HierarchyChange", severity: .warning,
        summary: "An entity hierarchy changes (outcome unverified)",
        help: "An entity changes its parent or its abstract flag, or separate hierarchies are merged. Core Data's builder does not examine hierarchies and infers the step, but how the rows move between tables is not verified, and Apple documents hierarchy merges as unsupported. Test the migration on a real store.",
        examples: [
            .versions("two separate entities get a common parent", versions: [
                #"<entity name="Car"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity><entity name="Boat"><attribute name="keel" optional="YES" attributeType="Integer 16"/></entity>"#,
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity><entity name="Boat" parentEntity="Vehicle"><attribute name="keel" optional="YES" attributeType="Integer 16"/></entity>"#,
            ], expected: 1),
            .versions("the hierarchy is unchanged", versions: [
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity>"#,
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 32"/></entity>"#,
            ], expected: 0),
        ])
}

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
