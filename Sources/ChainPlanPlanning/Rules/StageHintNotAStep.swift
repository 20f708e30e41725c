import ChainPlanCore

extension DiagnosticCode {
    /// CP515 StageHintNotAStep: a `stages` hint names no step of the chain.
    package static let stageHintNotAStep = DiagnosticCode(
        "CP515", name: "StageHintNotAStep", severity: .warning,
        summary: "A `stages` hint names no step of the chain",
        help: "Each `stages` entry (in the spec or `.chainplan.yml`) marks one step, `From -> To` with To the next version stores migrate to, as a custom migration stage. An entry naming a version the chain does not have, two versions that are not neighbours, or a step backwards marks nothing, and the stage the hint asked for is missing from the plan. Fix the names, or mark each step of a longer stretch.",
        examples: [
            .project("'V1 -> V3' under stages, but stores migrate V1 → V2 → V3",
                         files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note], extra: #", "stages": ["V1 -> V3"]"#), plansStages: true, expected: 1),
            .project("'V1 -> V2' under stages, and 'V2 -> V9', a version the chain does not have",
                         files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note], extra: #", "stages": ["V1 -> V2", "V2 -> V9"]"#), plansStages: true, expected: 1),
            .project("'V1 -> V2' under stages: a step, run as a custom stage",
                         files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note], extra: #", "stages": ["V1 -> V2"]"#), plansStages: true, expected: 0),
        ])
}

/// A `stages` hint (in the spec or `.chainplan.yml`) that names no step of the staged order marks
/// nothing. That is a finding (CP515), never a hint silently dropped:
///
///     order V1, V2, V3; stages ["V1 -> V2"]                 → V1 → V2 is a custom stage, no finding
///     order V1, V2, V3; stages ["V1 -> V3"]                 → CP515: V1 → V2 → V3, mark each step
///     order V1, V2, V3; stages ["V2 -> V1"]                 → CP515: the stores migrate V1 → V2, not back
///     order V1, V2, V3; stages ["V1 -> V9"]                 → CP515: 'V9' is not a version of the chain
///     order V1, V2, V3, V2 and V3 one checksum; ["V1 -> V3"] → no finding (V2 and V3 are one stage entry)
///     order V1, V2, V3, V2 and V3 one checksum; ["V2 -> V3"] → CP515: one version, no step between them
enum StageHintCheck {
    /// `units`: the plan's versions in migration order, versions with one checksum in one unit.
    /// `locations`: where each hint is written (the spec's hints); others are located at `fallback`.
    static func findings(marked: Set<StepKey>, units: [[String]], locations: [StepKey: SourceLocation],
                         fallback: SourceLocation) -> [Diagnostic] {
        var unitOf: [String: Int] = [:]
        for (index, unit) in units.enumerated() {
            for version in unit where unitOf[version] == nil { unitOf[version] = index }
        }
        let hints = marked.sorted { (locations[$0] ?? fallback, $0) < (locations[$1] ?? fallback, $1) }
        var findings: [Diagnostic] = []
        for hint in hints {
            let from = unitOf[hint.from], to = unitOf[hint.to]
            if let from, let to, to == from + 1 { continue }
            let marks = "'\(hint.from)' → '\(hint.to)' is marked as a custom stage"
            let why: String
            if from == nil || to == nil {
                let unknown = [hint.from, hint.to].filter { unitOf[$0] == nil }
                why = "but \(unknown.map { "'\($0)'" }.joined(separator: " and ")) \(unknown.count == 1 ? "is not a version" : "are not versions") "
                    + "of the staged order; check the spelling against the chain"
            } else if let from, let to, to > from {
                let through = units[from...to].map { "'\($0[0])'" }.joined(separator: " → ")
                why = "but it is no single step: stores migrate \(through); mark each step that needs a custom stage"
            } else if from == to {
                why = "but '\(hint.from)' and '\(hint.to)' are listed as one version (same checksum): there is no step between them"
            } else {
                why = "but stores migrate '\(hint.to)' → '\(hint.from)', not back; write the step oldest version first"
            }
            findings.append(Diagnostic(.stageHintNotAStep, "\(marks), \(why); the hint marks nothing",
                                       at: locations[hint] ?? fallback, versions: [hint.from, hint.to]))
        }
        return findings
    }
}
