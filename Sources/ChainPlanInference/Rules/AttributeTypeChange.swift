import ChainPlanCore

extension DiagnosticCode {
    /// CP204 AttributeTypeChange: an attribute's type change cannot be inferred.
    ///
    /// Raised in `AttributeTypeConversion.swift`, `TypeTransformation.swift`.
    public static let attributeTypeChange = DiagnosticCode(
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
