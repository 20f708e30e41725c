import ChainPlanCore

extension DiagnosticCode {
    /// CP501 DuplicateChecksumInStage: a lightweight stage lists a checksum twice.
    ///
    /// Raised by a stage list audit (`StageAudit.duplicateChecksumsInStages`, below).
    package static let duplicateChecksumInStage = DiagnosticCode(
        "CP501", name: "DuplicateChecksumInStage", severity: .error,
        summary: "A lightweight stage lists a checksum twice",
        help: "`NSLightweightMigrationStage`'s initializer throws \"Duplicate version checksums detected.\", an Objective-C exception Swift cannot catch: the app crashes at launch. List each version's checksum once.",
        examples: [
            .stages("V2 twice in the lightweight stage", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V2", "V3"]], expected: 1),
            .stages("each checksum once", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Lightweight stages that list one checksum twice.
    func duplicateChecksumsInStages() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (index, stage) in stages.enumerated() where stage.kind == .lightweight {
            var seen: Set<String> = []
            for key in stage.keys where !seen.insert(key).inserted {
                findings.append(Diagnostic(.duplicateChecksumInStage, "stage \(index + 1) lists \(shown(key)) twice: NSLightweightMigrationStage's initializer throws \"\(StageSimulation.Reason.duplicateInStage)\"",
                                           at: at(index), versions: [name(key)]))
            }
        }
        return findings
    }
}
