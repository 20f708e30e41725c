import ChainPlanReaders
extension InferenceRules {
    /// §4.2, matched attributes: the builder converts within one family of types and refuses
    /// every other change of type.
    public static let attributeTypeConversion = InferenceRule(
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
    static let conversionExamples: [InferenceRuleExample] = {
        let family = ["Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "Boolean"]
        let others = ["String", "Date", "Binary", "UUID", "URI", "Transformable", "Undefined"]
        var examples: [InferenceRuleExample] = []
        func example(_ from: String, _ to: String, _ outcome: InferenceRuleExample.Outcome) -> InferenceRuleExample {
            InferenceRuleExample("\(from) → \(to)", entity("Item", attribute("value", from)), entity("Item", attribute("value", to)), outcome)
        }
        for a in family { for b in family where a != b { examples.append(example(a, b, .inferred)) } }
        for a in family { for b in others { examples += [example(a, b, .refused), example(b, a, .refused)] } }
        for a in others { for b in others where a != b { examples.append(example(a, b, .refused)) } }
        return examples
    }()
}
