import ChainPlanCore

extension DiagnosticCode {
    /// CP512 IdenticalChecksums: two versions have the same checksum.
    ///
    /// Raised in `StageSynthesis.swift`.
    public static let identicalChecksums = DiagnosticCode(
        "CP512", name: "IdenticalChecksums", severity: .warning,
        summary: "Two versions have the same checksum",
        help: "Core Data cannot tell them apart; a stage list may name the checksum once only (twice crashes the initializer). The plan lists it once. They still differ in what hashes ignore (renaming identifiers, defaults), which can change inference.",
        examples: [
            .stages("V3 only changes what hashes ignore", versions: [RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody], sameChecksum: [2], stages: nil, expected: 1),
            .stages("every version differs", versions: RuleExampleFixtures.three, stages: nil, expected: 0),
        ])
}
