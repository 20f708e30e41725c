import ChainPlanCore

extension DiagnosticCode {
    /// CP503 EqualCustomEndpoints: a custom stage migrates a model to itself.
    ///
    /// Raised by a stage list audit (`StageAudit.equalCustomEndpoints`, below).
    package static let equalCustomEndpoints = DiagnosticCode(
        "CP503", name: "EqualCustomEndpoints", severity: .error,
        summary: "A custom stage migrates a model to itself",
        help: "`NSCustomMigrationStage`'s initializer throws \"The current model reference and the next model reference cannot be equal.\" (often two versions whose checksums are equal). Drop the stage or move its handlers to a stage between different models.",
        examples: [
            .stages("V2 and V3 share a checksum and a custom stage joins them", versions: RuleExampleFixtures.three, sameChecksum: [2],
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 1),
            .stages("different checksums", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Custom stages whose current and next models are one.
    func equalCustomEndpoints() -> [Diagnostic] {
        stages.enumerated().compactMap { index, stage in
            guard stage.kind == .custom, stage.keys.count == 2, stage.keys[0] == stage.keys[1] else { return nil }
            return Diagnostic(.equalCustomEndpoints, "stage \(index + 1) migrates \(shown(stage.keys[0])) to itself: NSCustomMigrationStage's initializer throws \"\(StageSimulation.Reason.equalEndpoints)\"",
                              at: at(index), versions: [name(stage.keys[0])])
        }
    }
}
