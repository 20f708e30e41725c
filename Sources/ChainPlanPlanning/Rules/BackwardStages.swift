import ChainPlanCore

extension DiagnosticCode {
    /// CP507 BackwardStages: the stages migrate some store backwards.
    ///
    /// Raised in `StageAudit.swift`.
    public static let backwardStages = DiagnosticCode(
        "CP507", name: "BackwardStages", severity: .error,
        summary: "The stages migrate some store backwards",
        help: "The app model's stage comes before the store's, or precedes it in the last lightweight stage: Core Data refuses with 134506 \"A store file cannot be migrated backwards with staged migration.\" List stages oldest first.",
        examples: [
            .stages("the stages are listed newest first", versions: RuleExampleFixtures.three, stages: [["custom", "V2", "V3"], ["lightweight", "V1"]], expected: 1),
            .stages("oldest first", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ])
}
