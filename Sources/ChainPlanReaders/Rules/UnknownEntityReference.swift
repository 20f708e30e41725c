import ChainPlanCore

extension DiagnosticCode {
    /// CP116 UnknownEntityReference: a relationship or parent names an entity that does not exist.
    ///
    /// Raised in `ModelValidator.swift`.
    public static let unknownEntityReference = DiagnosticCode(
        "CP116", name: "UnknownEntityReference", severity: .error, unusableInput: true,
        summary: "A relationship or parent names an entity that does not exist",
        help: "A relationship's destination or inverse entity, or an entity's parent, is not defined in the model version; momc fails to compile it.",
        examples: [
            .project("a relationship to an entity that does not exist", files: RuleExampleFixtures.project([
                #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#,
            ]), expected: 1),
            .project("the destination entity exists", files: RuleExampleFixtures.project([
                #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
            ]), expected: 0),
        ])
}
