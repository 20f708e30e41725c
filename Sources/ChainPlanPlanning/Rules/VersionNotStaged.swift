import ChainPlanCore

extension DiagnosticCode {
    /// CP505 VersionNotStaged: a shipped version is in no stage.
    ///
    /// Raised in `StageAudit.swift`, `StageListAudit.swift`.
    public static let versionNotStaged = DiagnosticCode(
        "CP505", name: "VersionNotStaged", severity: .error,
        summary: "A shipped version is in no stage",
        help: "Stores created by this version fail with 134504 \"Cannot use staged migration with an unknown model version.\" Never delete the store on 134504: add the version's checksum to a stage.",
        examples: [
            .stages("V1 was dropped from the stages", versions: RuleExampleFixtures.three, stages: [["lightweight", "V2", "V3"]], expected: 1),
            .stages("every shipped version listed", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}
