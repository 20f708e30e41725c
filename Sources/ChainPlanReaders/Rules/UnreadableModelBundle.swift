import ChainPlanCore

extension DiagnosticCode {
    /// CP111 UnreadableModelBundle: the model bundle cannot be read.
    ///
    /// Raised where the input cannot be read, with the reader's reason: `CompiledModelInfo.swift`, `DryRun.swift`, `Explain.swift`, `ModelBundleReader.swift`, `ProjectLoader.swift`, `PassesPlanning.swift`, `StageModelWriter.swift`.
    package static let unreadableModelBundle = DiagnosticCode(
        "CP111", name: "UnreadableModelBundle", severity: .error, unusableInput: true,
        summary: "The model bundle cannot be read",
        help: "The `.xcdatamodeld` is missing, not a directory, holds no versions, or lies outside the spec's folder without `--allow-outside`.",
        examples: [
            .project("the spec's model bundle does not exist", files: [RuleExampleFixtures.spec(["V1", "V2"])], expected: 1),
            .project("the bundle is there", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}
