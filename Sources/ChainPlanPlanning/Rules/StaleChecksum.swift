import ChainPlanCore

extension DiagnosticCode {
    /// CP506 StaleChecksum: a stage names a checksum of no model version.
    ///
    /// Raised in `CompiledChecksumCheck.swift`, `StageAudit.swift`, `StageListAudit.swift`.
    public static let staleChecksum = DiagnosticCode(
        "CP506", name: "StaleChecksum", severity: .error,
        summary: "A stage names a checksum of no model version",
        help: "The model was edited after the checksum was copied (or the constant was mistyped). Custom stage references crash the manager's initializer; lightweight checksums fail at load with 134504. Regenerate the constants from the compiled model (`chainplan stage --format swift`).",
        examples: [
            .stages("a checksum copied before V2 was edited", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "old-V2-checksum", "V3"]], expected: 1),
            .stages("current checksums", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}
