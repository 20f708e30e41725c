import ChainPlanCore

extension DiagnosticCode {
    /// CP118 MalformedModelXML: a model's `contents` is not a valid Core Data model document.
    ///
    /// Raised where the input cannot be read, with the reader's reason: `ModelBundleReader.swift`, `ModelContentsParser.swift`, `ModelValidator.swift` (an inheritance too large to resolve).
    package static let malformedModelXML = DiagnosticCode(
        "CP118", name: "MalformedModelXML", severity: .error, unusableInput: true,
        summary: "A model's `contents` is not a valid Core Data model document",
        help: "The XML is truncated, not UTF-8, has the wrong root element, declares a DTD or entities (refused for safety), misses required attributes, or exceeds size limits.",
        examples: [
            .project("an element left open", files: RuleExampleFixtures.project([#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/>"#]), expected: 1),
            .project("well-formed", files: RuleExampleFixtures.project([RuleExampleFixtures.note]), expected: 0),
        ])
}
