import ChainPlanCore

extension DiagnosticCode {
    /// CP504 AppModelNotStaged: the app's model is in no stage.
    ///
    /// Raised by a stage list audit (`StageAudit.appModelNotStaged`) and for a Swift source (`appModelNotInSource`), both below.
    package static let appModelNotStaged = DiagnosticCode(
        "CP504", name: "AppModelNotStaged", severity: .error,
        summary: "The app's model is in no stage",
        help: "Staged migration's pre-flight fails every store with 134504 \"Cannot use staged migration with an unknown coordinator model version.\" Add the current version's checksum to the last stage (usually after adding a new model version and forgetting the stage list).",
        examples: [
            .stages("the new version V3 was not added to the stages", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2"]], expected: 1),
            .stages("V3 added", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a Swift stage list that names no checksum of the app model `version`.
    static func appModelNotInSource(_ version: String, checksum: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.appModelNotStaged, "the source names no checksum of '\(version)' (\(checksum)): its stores fail with 134504 \"\(StageSimulation.Reason.unknownCoordinatorModel)\"",
                   at: location, versions: [version])
    }
}

extension StageAudit {
    /// The app model in no stage.
    func appModelNotStaged() -> [Diagnostic] {
        guard !listed.contains(app) else { return [] }
        return [Diagnostic(.appModelNotStaged, "the app model \(shown(app)) is in no stage: every store fails with 134504 \"\(StageSimulation.Reason.unknownCoordinatorModel)\"",
                           at: location, versions: [name(app)])]
    }
}
