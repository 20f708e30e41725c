import ChainPlanCore

extension DiagnosticCode {
    /// CP502 ChecksumAcrossStages: a checksum is in two stages where Core Data allows one.
    ///
    /// Raised in `StageAudit.swift`.
    public static let checksumAcrossStages = DiagnosticCode(
        "CP502", name: "ChecksumAcrossStages", severity: .error,
        summary: "A checksum is in two stages where Core Data allows one",
        help: "A checksum may be one custom stage's current model and one custom stage's next model, and then in no lightweight stage; a lightweight checksum may be in one lightweight stage only. Otherwise the manager's initializer throws \"Duplicate version checksums across stages detected.\" and the app crashes at launch.",
        examples: [
            .stages("V2 ends a lightweight stage and starts a custom one", versions: RuleExampleFixtures.three,
                         stages: [["lightweight", "V1", "V2"], ["custom", "V2", "V3"]], expected: 1),
            .stages("the lightweight stage stops before the custom stage's current model", versions: RuleExampleFixtures.three,
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ])
}
