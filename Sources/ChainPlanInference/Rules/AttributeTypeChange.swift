import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP204 AttributeTypeChange: an attribute's type change cannot be inferred.
    ///
    /// Raised by the inference rules below: attribute-type-conversion and type-transformation-key (`attributeType`).
    package static let attributeTypeChange = DiagnosticCode(
        "CP204", name: "AttributeTypeChange", severity: .error,
        summary: "An attribute's type change cannot be inferred",
        help: "Core Data's builder converts Integer 16/32/64, Decimal, Double, Float and Boolean into one another and refuses every other type change (134190 \"Source and destination attribute types are incompatible\"). With NSMigrationAllowTypeTransformation in the destination attribute's userInfo only Transformable <-> Binary is accepted, and an unchanged type with the key is refused too. Add a mapping model, or remove the key after the step that needs it.",
        examples: [
            .versions("String becomes Integer 64", versions: [
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#,
            ], expected: 1),
            .versions("Integer 16 becomes Decimal (converted)", versions: [
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/></entity>"#,
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="Decimal"/></entity>"#,
            ], expected: 0),
        ])
}
extension InferenceRules {
    /// §4.2, matched attributes: the builder converts within one family of types and refuses
    /// every other change of type.
    package static let attributeTypeConversion = InferenceRule(
        id: "attribute-type-conversion",
        checks: "A matched attribute changes type: Integer 16/32/64, Decimal, Double, Float and Boolean convert into one another in "
            + "any direction; any other change (Undefined included) fails with 134190 \"Source and destination attribute types are incompatible\"",
        basis: .coreDataBuilder, code: .attributeTypeChange,
        examples: conversionExamples)

    /// The types the builder converts into one another.
    static let convertibleTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float, .boolean]

    /// True when the builder maps a `from` value into a `to` attribute (no transformation key).
    static func converts(_ from: AttributeType, _ to: AttributeType) -> Bool {
        from == to || (convertibleTypes.contains(from) && convertibleTypes.contains(to))
    }

    /// Both directions of every pair the table distinguishes: within the family, and between the
    /// family and the other types.
    static let conversionExamples: [RuleExample] = {
        let family = ["Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "Boolean"]
        let others = ["String", "Date", "Binary", "UUID", "URI", "Transformable", "Undefined"]
        var examples: [RuleExample] = []
        func conversion(_ from: String, _ to: String, _ outcome: RuleExample.Outcome) -> RuleExample {
            example("\(from) → \(to)", entity("Item", attribute("value", from)), entity("Item", attribute("value", to)), outcome)
        }
        for a in family { for b in family where a != b { examples.append(conversion(a, b, .inferred)) } }
        for a in family { for b in others { examples += [conversion(a, b, .refused), conversion(b, a, .refused)] } }
        for a in others { for b in others where a != b { examples.append(conversion(a, b, .refused)) } }
        return examples
    }()
}
extension InferenceRules {
    /// §4.2: with `NSMigrationAllowTypeTransformation` in the destination attribute's userInfo, the
    /// conversion table is replaced by Transformable ↔ Binary alone.
    package static let typeTransformation = InferenceRule(
        id: "type-transformation-key",
        checks: "The destination attribute's userInfo has NSMigrationAllowTypeTransformation: only Transformable ↔ Binary is allowed; "
            + "any other pair, an unchanged type included (String → String, Binary → Binary), fails with 134190 \"Type Transformation "
            + "expects NSTransformableAttributeType or NSBinaryDataAttributeType\", and an externally stored Binary side fails too",
        basis: .coreDataBuilder, code: .attributeTypeChange,
        examples: [
            example("Transformable → Binary", entity("Item", attribute("blob", "Transformable")),
                    entity("Item", attribute("blob", "Binary", "optional=\"YES\"").replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")),
                    .inferred),
            example("Binary → Transformable", entity("Item", attribute("blob", "Binary")),
                    entity("Item", attribute("blob", "Transformable").replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")),
                    .inferred),
            example("unchanged String with the key", entity("Item", attribute("name", "String")),
                    entity("Item", attribute("name", "String").replacingOccurrences(of: "/>", with: ">\(transformationKey)</attribute>")
                       + attribute("other", "String")), .refused),
            example("externally stored Binary side", entity("Item", attribute("blob", "Transformable")),
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

extension InferenceRules {
    /// A matched attribute's type: under the transformation key, the key's own table; else
    /// converted within the numeric family, or refused. One finding either way.
    static func attributeType(_ pair: AttributePair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        let label = pair.label
        if allowsTypeTransformation(b) {
            if let refusal = transformationRefusal(a, b) {
                return [typeTransformation.change(
                    .attributeTypeChanged, entity: pair.entity, property: b.name,
                    detail: "attribute \(label) (\(a.type.xmlValue) → \(b.type.xmlValue)) has \(transformationKeyName) in its userInfo: "
                        + "Core Data refuses to infer the mapping (134190 \"\(refusal)\"); remove the key unless the step turns Transformable into Binary or back",
                    verdict: .blocksInference, location: pair.location)]
            }
            return [typeTransformation.change(
                .attributeTypeChanged, entity: pair.entity, property: b.name,
                detail: "attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue) (\(transformationKeyName))",
                verdict: .inferable, code: .some(nil), location: pair.location)]
        }
        guard a.type != b.type else { return [] }
        let converts = converts(a.type, b.type)
        return [attributeTypeConversion.change(
            .attributeTypeChanged, entity: pair.entity, property: b.name,
            detail: "attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue)"
                + (converts ? " (converted)" : ": Core Data refuses to infer the mapping "
                    + "(134190 \"Source and destination attribute types are incompatible\"; the app fails with 134140)"),
            verdict: converts ? .inferable : .blocksInference, code: converts ? .some(nil) : nil, location: pair.location)]
    }
}
