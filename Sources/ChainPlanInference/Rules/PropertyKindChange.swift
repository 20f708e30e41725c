import ChainPlanCore

extension DiagnosticCode {
    /// CP211 PropertyKindChange: an attribute is replaced by a relationship or entity (or the reverse).
    ///
    /// Raised in `PropertyKindMismatch.swift`, `StageSynthesis.swift`.
    public static let propertyKindChange = DiagnosticCode(
        "CP211", name: "PropertyKindChange", severity: .warning,
        summary: "An attribute is replaced by a relationship or entity (or the reverse)",
        help: "For example a `categoria` string attribute becoming a `Categoria` entity. Core Data infers this as drop + add: the step migrates, but the old values are deleted. Move the data with a mapping model or a custom migration stage.",
        examples: [
            .versions("a text attribute becomes a relationship to a new entity", versions: [
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Nota"><relationship name="categoria" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Categoria"/></entity><entity name="Categoria"><attribute name="nombre" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 1),
            .versions("a relationship added beside the attribute", versions: [
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/><relationship name="grupo" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Categoria"/></entity><entity name="Categoria"><attribute name="nombre" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 0),
        ])
}
