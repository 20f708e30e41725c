import ChainPlanCore

extension DiagnosticCode {
    /// CP513 StageCycle: custom stages form a cycle.
    ///
    /// Raised by a stage list audit (`StageAudit.stageCycles`, below).
    package static let stageCycle = DiagnosticCode(
        "CP513", name: "StageCycle", severity: .warning,
        summary: "Custom stages form a cycle",
        help: "The manager accepts cycles, but a store on one migrates away from its model and back. Usually two stages were written in the wrong direction.",
        examples: [
            .stages("two custom stages migrate V2 → V3 and back", versions: RuleExampleFixtures.three,
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"], ["custom", "V3", "V2"]], expected: 1),
            .stages("one direction", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Custom stages whose current → next edges come back to where they started.
    func stageCycles() -> [Diagnostic] {
        var edges: [String: [Int]] = [:]
        for (index, stage) in stages.enumerated() where stage.kind == .custom && stage.keys.count == 2 && stage.keys[0] != stage.keys[1] {
            edges[stage.keys[0], default: []].append(index)
        }
        var reported: Set<Int> = []
        // Stages known to be on no cycle: a walk reaching one cannot come back to its start (the
        // start's successor would be on the same cycle). Without this, a long run of custom
        // stages walked to its end from every stage: n² steps.
        var acyclic: Set<Int> = []
        var findings: [Diagnostic] = []
        for (start, stage) in stages.enumerated() where stage.kind == .custom && stage.keys.count == 2 && !reported.contains(start) && !acyclic.contains(start) {
            // Walk forward from this stage's next model; at most one step per stage.
            var key = stage.keys[1]
            var path = [start]
            var onPath: Set<Int> = [start]
            var steps = 0
            var cycle = false
            var settles = true
            while steps < stages.count {
                guard let following = edges[key]?.first else { break }
                steps += 1
                if following == start {
                    cycle = true
                    reported.formUnion(path)
                    let models = path.map { shown(stages[$0].keys[0]) }.joined(separator: " → ")
                    findings.append(Diagnostic(.stageCycle, "custom stages \(path.map { String($0 + 1) }.joined(separator: ", ")) form a cycle (\(models) → \(shown(stage.keys[0]))): the manager accepts it, but a store on it migrates away from and back to its model",
                                               at: at(start), versions: path.map { name(stages[$0].keys[0]) }))
                    break
                }
                if acyclic.contains(following) { break }
                if onPath.contains(following) {
                    // A cycle not through `start`: the stages before its entry are on none.
                    if let entry = path.firstIndex(of: following) { acyclic.formUnion(path[..<entry]) }
                    settles = false
                    break
                }
                path.append(following)
                onPath.insert(following)
                key = stages[following].keys[1]
            }
            // The walk ended (no next stage, or a stage on no cycle): every stage on it is on none.
            if !cycle, settles, steps < stages.count { acyclic.formUnion(path) }
        }
        return findings
    }
}
