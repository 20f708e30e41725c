import ChainPlanReaders
extension InferenceRules {
    /// §4.2: with `NSMigrationAllowTypeTransformation` in the destination attribute's userInfo, the
    /// conversion table is replaced by Transformable ↔ Binary alone.
    public static let typeTransformation = InferenceRule(
        id: "type-transformation-key",
        checks: "The destination attribute's userInfo has NSMigrationAllowTypeTransformation: only Transformable ↔ Binary is allowed; "
            + "any other pair, an unchanged type included (String → String, Binary → Binary), fails with 134190 \"Type Transformation "
            + "expects NSTransformableAttributeType or NSBinaryDataAttributeType\", and an externally stored Binary side fails too",
        basis: .coreDataBuilder, code: .attributeTypeChange,
        examples: [
            InferenceRuleExample("Transformable → Binary", entity("Item", attribute("blob", "Transformable")),
                                 entity("Item", attribute("blob", "Binary", "optional=\"YES\"").replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")),
                                 .inferred),
            InferenceRuleExample("Binary → Transformable", entity("Item", attribute("blob", "Binary")),
                                 entity("Item", attribute("blob", "Transformable").replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")),
                                 .inferred),
            InferenceRuleExample("unchanged String with the key", entity("Item", attribute("name", "String")),
                                 entity("Item", attribute("name", "String").replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")
                                    + attribute("other", "String")), .refused),
            InferenceRuleExample("externally stored Binary side", entity("Item", attribute("blob", "Transformable")),
                                 entity("Item", attribute("blob", "Binary", "optional=\"YES\" allowsExternalBinaryDataStorage=\"YES\"")
                                    .replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")), .refused),
        ])

    static let transformationKeyName = "NSMigrationAllowTypeTransformation"
    static let transformationKey = "<userInfo><entry key=\"NSMigrationAllowTypeTransformation\" value=\"YES\"/></userInfo>"

    /// True when `attribute` carries the key (any value).
    static func allowsTypeTransformation(_ attribute: Attribute) -> Bool {
        attribute.userInfo.contains { $0.key == transformationKeyName }
    }

    /// Core Data's reason for refusing `from` → `to` under the key, or nil when it accepts it.
    static func transformationRefusal(_ from: Attribute, _ to: Attribute) -> String? {
        let pair = (from.type, to.type)
        guard pair == (.transformable, .binary) || pair == (.binary, .transformable) else {
            return "Type Transformation expects NSTransformableAttributeType or NSBinaryDataAttributeType"
        }
        let binary = from.type == .binary ? from : to
        if binary.allowsExternalBinaryDataStorage { return "Type Transformation expects the Binary side \"…NOT to be stored externally\"" }
        return nil
    }
}
