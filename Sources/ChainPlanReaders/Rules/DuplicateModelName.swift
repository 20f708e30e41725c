import ChainPlanCore

extension DiagnosticCode {
    /// CP115 DuplicateModelName: an entity or property name is defined twice.
    ///
    /// Raised in `ModelValidator.swift`.
    public static let duplicateModelName = DiagnosticCode(
        "CP115", name: "DuplicateModelName", severity: .error, unusableInput: true,
        summary: "An entity or property name is defined twice",
        help: "Xcode refuses a model with two entities of one name, or two properties of one name in an entity (inherited ones included).",
        examples: [
            .project("an attribute defined twice", files: RuleExampleFixtures.project([
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="title" optional="YES" attributeType="Date"/></entity>"#,
            ]), expected: 1),
            .project("distinct names", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}
