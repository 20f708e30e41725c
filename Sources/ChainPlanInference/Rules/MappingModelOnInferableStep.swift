import ChainPlanCore

extension DiagnosticCode {
    /// CP206 MappingModelOnInferableStep: a mapping model covers a step that would infer anyway.
    ///
    /// Raised in `StepClassifier.swift`.
    public static let mappingModelOnInferableStep = DiagnosticCode(
        "CP206", name: "MappingModelOnInferableStep", severity: .note,
        summary: "A mapping model covers a step that would infer anyway",
        help: "Legitimate when the mapping transforms data; otherwise the mapping model forces a slower heavyweight migration.",
        examples: [
            .versions("a mapping model on a step that adds an optional attribute", versions: [RuleExampleFixtures.note, RuleExampleFixtures.note.replacingOccurrences(of: "</entity>", with: #"<attribute name="body" optional="YES" attributeType="String"/></entity>"#)],
                                  mappingModelOnFirstStep: true, expected: 1),
            .versions("the same step without a mapping model", versions: [RuleExampleFixtures.note, RuleExampleFixtures.note.replacingOccurrences(of: "</entity>", with: #"<attribute name="body" optional="YES" attributeType="String"/></entity>"#)],
                                  expected: 0),
        ])
}
