import ChainPlanCore

extension DiagnosticCode {
    /// CP502 ChecksumAcrossStages: a checksum is in two stages where Core Data allows one.
    ///
    /// Raised by a stage list audit (`StageAudit.checksumsAcrossStages`, below).
    package static let checksumAcrossStages = DiagnosticCode(
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

extension StageAudit {
    /// A checksum in two lightweight stages, the current (or next) model of two custom stages,
    /// or in a lightweight stage and at an end of a custom one.
    func checksumsAcrossStages() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var lightweightStage: [String: Int] = [:]
        var currentStage: [String: Int] = [:]
        var nextStage: [String: Int] = [:]
        for (index, stage) in stages.enumerated() {
            switch stage.kind {
            case .lightweight:
                var seen: Set<String> = []
                for key in stage.keys where seen.insert(key).inserted {
                    if let other = lightweightStage[key] {
                        findings.append(Diagnostic(.checksumAcrossStages, "\(shown(key)) is in lightweight stages \(other + 1) and \(index + 1): the manager's initializer throws \"\(StageSimulation.Reason.duplicateAcrossStages)\"",
                                                   at: at(index), versions: [name(key)]))
                    } else {
                        lightweightStage[key] = index
                    }
                }
            case .custom:
                guard stage.keys.count == 2 else { continue }
                for (key, isCurrent) in [(stage.keys[0], true), (stage.keys[1], false)] {
                    if let other = isCurrent ? currentStage[key] : nextStage[key] {
                        findings.append(Diagnostic(.checksumAcrossStages, "\(shown(key)) is the \(isCurrent ? "current" : "next") model of custom stages \(other + 1) and \(index + 1): the manager's initializer throws \"\(StageSimulation.Reason.duplicateAcrossStages)\"",
                                                   at: at(index), versions: [name(key)]))
                    } else if isCurrent {
                        currentStage[key] = index
                    } else {
                        nextStage[key] = index
                    }
                }
            }
        }
        for (key, index) in lightweightStage.sorted(by: { $0.value < $1.value }) {
            if let custom = currentStage[key] ?? nextStage[key] {
                findings.append(Diagnostic(.checksumAcrossStages, "\(shown(key)) is in lightweight stage \(index + 1) and is an endpoint of custom stage \(custom + 1): the manager's initializer throws \"\(StageSimulation.Reason.duplicateAcrossStages)\"",
                                           at: at(max(index, custom)), versions: [name(key)]))
            }
        }
        return findings
    }
}
