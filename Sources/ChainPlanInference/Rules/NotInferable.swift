import ChainPlanCore

extension DiagnosticCode {
    /// CP201 NotInferable: a step cannot be inferred and has no mapping model.
    ///
    /// Raised in `ExternalStorage.swift`, `StageSynthesis.swift`, `StepClassifier.swift`, `ToManyToToOne.swift`.
    public static let notInferable = DiagnosticCode(
        "CP201", name: "NotInferable", severity: .error,
        summary: "A step cannot be inferred and has no mapping model",
        help: "Core Data's mapping builder refuses this step (134190; the app fails with 134140) and no mapping model covers it: a to-many relationship becomes to-one, or external storage is turned off. The finding names the cause. Add a mapping model for the step, or split it into inferable steps.",
        examples: [
            .versions("a to-many relationship becomes to-one, no mapping model", versions: [RuleExampleFixtures.toManyTags, RuleExampleFixtures.toOneTags], expected: 1),
            .versions("the same step with a mapping model", versions: [RuleExampleFixtures.toManyTags, RuleExampleFixtures.toOneTags], mappingModelOnFirstStep: true, expected: 0),
        ])
}
