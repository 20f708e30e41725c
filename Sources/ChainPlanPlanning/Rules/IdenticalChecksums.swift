import ChainPlanCore

extension DiagnosticCode {
    /// CP512 IdenticalChecksums: two versions have the same checksum.
    ///
    /// Raised when a stage plan merges versions Core Data cannot tell apart (`identicalChecksums`, below).
    package static let identicalChecksums = DiagnosticCode(
        "CP512", name: "IdenticalChecksums", severity: .warning,
        summary: "Two versions have the same checksum",
        help: "Core Data cannot tell them apart; a stage list may name the checksum once only (twice crashes the initializer). The plan lists it once. They still differ in what hashes ignore (renaming identifiers, defaults), which can change inference.",
        examples: [
            .stages("V3 only changes what hashes ignore", versions: [RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody], sameChecksum: [2], stages: nil, expected: 1),
            .stages("every version differs", versions: RuleExampleFixtures.three, stages: nil, expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for `version`, listed in a stage plan as `first`: equal checksums, or equal
    /// hashes when no checksums are known (`byChecksum` false).
    static func identicalChecksums(_ version: String, listedAs first: String, byChecksum: Bool, at location: SourceLocation) -> Diagnostic {
        let basis = byChecksum ? "has the same checksum as" : "hashes the same as"
        return Diagnostic(.identicalChecksums, "'\(version)' \(basis) '\(first)': the plan lists it once (a store at either is the same to Core Data; which one it picks as the source is unspecified)",
                          at: location, versions: [first, version])
    }
}
