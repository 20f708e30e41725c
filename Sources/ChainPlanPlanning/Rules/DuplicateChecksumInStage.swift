import ChainPlanCore

extension DiagnosticCode {
    /// CP501 DuplicateChecksumInStage: a lightweight stage lists a checksum twice.
    ///
    /// Raised in `StageAudit.swift`.
    public static let duplicateChecksumInStage = DiagnosticCode(
        "CP501", name: "DuplicateChecksumInStage", severity: .error,
        summary: "A lightweight stage lists a checksum twice",
        help: "`NSLightweightMigrationStage`'s initializer throws \"Duplicate version checksums detected.\", an Objective-C exception Swift cannot catch: the app crashes at launch. List each version's checksum once.",
        examples: [
            .stages("V2 twice in the lightweight stage", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V2", "V3"]], expected: 1),
            .stages("each checksum once", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}
