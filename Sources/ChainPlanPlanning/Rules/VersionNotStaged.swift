import ChainPlanCore

extension DiagnosticCode {
    /// CP505 VersionNotStaged: a shipped version is in no stage.
    ///
    /// Raised by a stage list audit (`StageAudit.versionsNotStaged`) and for a Swift source (`versionNotInSource`), both below.
    package static let versionNotStaged = DiagnosticCode(
        "CP505", name: "VersionNotStaged", severity: .error,
        summary: "A shipped version is in no stage",
        help: "Stores created by this version fail with 134504 \"Cannot use staged migration with an unknown model version.\" Never delete the store on 134504: add the version's checksum to a stage.",
        examples: [
            .stages("V1 was dropped from the stages", versions: RuleExampleFixtures.three, stages: [["lightweight", "V2", "V3"]], expected: 1),
            .stages("every shipped version listed", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a Swift stage list that names no checksum of the shipped `version`.
    static func versionNotInSource(_ version: String, checksum: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.versionNotStaged, "the source names no checksum of '\(version)' (\(checksum)): its stores fail with 134504 \"\(StageSimulation.Reason.unknownModel)\"",
                   at: location, versions: [version])
    }
}

extension StageAudit {
    /// Shipped versions, other than the app model, in no stage.
    func versionsNotStaged() -> [Diagnostic] {
        shipped.filter { !listed.contains($0) && $0 != app }.map { key in
            Diagnostic(.versionNotStaged, "the shipped version \(shown(key)) is in no stage: its stores fail with 134504 \"\(StageSimulation.Reason.unknownModel)\"",
                       at: location, versions: [name(key)])
        }
    }
}
