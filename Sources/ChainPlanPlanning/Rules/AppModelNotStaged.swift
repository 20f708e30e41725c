import ChainPlanCore

extension DiagnosticCode {
    /// CP504 AppModelNotStaged: the app's model is in no stage.
    ///
    /// Raised in `StageAudit.swift`, `StageListAudit.swift`.
    public static let appModelNotStaged = DiagnosticCode(
        "CP504", name: "AppModelNotStaged", severity: .error,
        summary: "The app's model is in no stage",
        help: "Staged migration's pre-flight fails every store with 134504 \"Cannot use staged migration with an unknown coordinator model version.\" Add the current version's checksum to the last stage (usually after adding a new model version and forgetting the stage list).",
        examples: [
            .stages("the new version V3 was not added to the stages", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2"]], expected: 1),
            .stages("V3 added", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}
