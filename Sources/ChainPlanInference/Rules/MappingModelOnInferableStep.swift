import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP206 MappingModelOnInferableStep: a mapping model covers a step that would infer anyway.
    ///
    /// Raised for a step that infers and has a mapping model (`unneededMappingModelFinding`, called by `StepClassifier.findings`).
    package static let mappingModelOnInferableStep = DiagnosticCode(
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

extension StepClassifier {
    /// The CP206 finding of a step `from` → `to` that infers, covered by `mappingModel`.
    static func unneededMappingModelFinding(_ mappingModel: StepMappingModel, from: String, to: String) -> Diagnostic {
        Diagnostic(.mappingModelOnInferableStep, "the mapping model '\(mappingModel.path)' covers '\(from)' → '\(to)', which Core Data would infer anyway (fine if it transforms data)",
                   at: SourceLocation(file: mappingModel.path + "/xcmapping.xml"), versions: [from, to])
    }
}
