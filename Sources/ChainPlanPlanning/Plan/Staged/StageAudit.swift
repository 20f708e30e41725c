import ChainPlanCore
/// Core Data's staged-migration rules (reference §6.1) checked on a stage list: the one chainplan
/// synthesises, or one a user wrote (`chainplan stage --check`). Structural checks first (what the
/// stage and manager initializers refuse, fact 6 and the exception table), then what the
/// simulated starts run into (facts 2–7). One cause, one finding: a start's error that a
/// structural finding already explains is not reported again.
struct StageAudit {
    var stages: [RuntimeStage]
    /// Where each stage is written.
    var locations: [SourceLocation]
    /// The shipped versions' keys, oldest first (the app model last).
    var shipped: [String]
    var app: String
    /// Every key that names a version of the bundle (others are stale).
    var known: Set<String>
    var name: (String) -> String
    var starts: [StageRun]
    /// Where findings without a stage of their own are located.
    var location: SourceLocation

    private func shown(_ key: String) -> String { "'\(name(key))'" }

    private func at(_ stage: Int) -> SourceLocation { stage < locations.count ? locations[stage] : location }

    func findings() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var lightweightStage: [String: Int] = [:]
        var currentStage: [String: Int] = [:]
        var nextStage: [String: Int] = [:]
        for (index, stage) in stages.enumerated() {
            switch stage.kind {
            case .lightweight:
                var seen: Set<String> = []
                for key in stage.keys {
                    if !seen.insert(key).inserted {
                        findings.append(Diagnostic(.duplicateChecksumInStage, "stage \(index + 1) lists \(shown(key)) twice: NSLightweightMigrationStage's initializer throws \"\(StageSimulation.Reason.duplicateInStage)\"",
                                                   at: at(index), versions: [name(key)]))
                    } else if let other = lightweightStage[key] {
                        findings.append(Diagnostic(.checksumAcrossStages, "\(shown(key)) is in lightweight stages \(other + 1) and \(index + 1): the manager's initializer throws \"\(StageSimulation.Reason.duplicateAcrossStages)\"",
                                                   at: at(index), versions: [name(key)]))
                    } else {
                        lightweightStage[key] = index
                    }
                }
            case .custom:
                guard stage.keys.count == 2 else { continue }
                if stage.keys[0] == stage.keys[1] {
                    findings.append(Diagnostic(.equalCustomEndpoints, "stage \(index + 1) migrates \(shown(stage.keys[0])) to itself: NSCustomMigrationStage's initializer throws \"\(StageSimulation.Reason.equalEndpoints)\"",
                                               at: at(index), versions: [name(stage.keys[0])]))
                }
                // The tables are updated in place (a copy per stage grew with the square of the stages).
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
        let listed = Set(stages.flatMap(\.keys))
        for (index, stage) in stages.enumerated() {
            for key in stage.keys where !known.contains(key) {
                findings.append(Diagnostic(.staleChecksum, "stage \(index + 1) names the checksum '\(key)', which is no version of the model (a stale constant: the model was edited after it was copied); custom references crash the manager's initializer, lightweight ones fail at load with 134504",
                                           at: at(index)))
            }
        }
        if !listed.contains(app) {
            findings.append(Diagnostic(.appModelNotStaged, "the app model \(shown(app)) is in no stage: every store fails with 134504 \"\(StageSimulation.Reason.unknownCoordinatorModel)\"",
                                       at: location, versions: [name(app)]))
        }
        for key in shipped where !listed.contains(key) && key != app {
            findings.append(Diagnostic(.versionNotStaged, "the shipped version \(shown(key)) is in no stage: its stores fail with 134504 \"\(StageSimulation.Reason.unknownModel)\"",
                                       at: location, versions: [name(key)]))
        }
        findings += cycleFindings()
        findings += startFindings()
        return findings
    }

    /// Custom stages whose current → next edges come back to where they started.
    private func cycleFindings() -> [Diagnostic] {
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

    /// What the simulated starts run into, grouped by cause (starts listed in order).
    private func startFindings() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        func group(_ code: DiagnosticCode, _ matching: (StageRun) -> Bool, _ message: ([StageRun]) -> String) {
            let runs = starts.filter(matching)
            guard !runs.isEmpty else { return }
            findings.append(Diagnostic(code, message(runs), at: location, versions: runs.map(\.version)))
        }
        func names(_ runs: [StageRun]) -> String { runs.map { "'\($0.version)'" }.joined(separator: ", ") }
        group(.backwardStages, { $0.error?.code == 134506 }) { "stores at \(names($0)) fail with 134506 \"\(StageSimulation.Reason.backward)\": the app model's stage comes before theirs" }
        group(.stagesEndOffAppModel, { $0.error?.reason == StageSimulation.Reason.incompatibleAfterMigration }) {
            "stores at \(names($0)) end on \($0[0].jumps.last.map { "'\($0.to)'" } ?? "their own model"), not the app model: 134100 \"\(StageSimulation.Reason.incompatibleAfterMigration)\" (end the stages exactly on the app model)"
        }
        group(.handlerOffCurrentModel, { $0.error?.code == 134100 && $0.error?.reason == StageSimulation.Reason.incompatible }) {
            "stores at \(names($0)) reach a custom stage's willMigrate handler off its current model: 134100 \"\(StageSimulation.Reason.incompatible)\""
        }
        for run in starts where run.error?.code == 134140 {
            guard let jump = run.jumps.last else { continue }
            findings.append(Diagnostic(.stageJumpFails, "a store at '\(run.version)' jumps '\(jump.from)' → '\(jump.to)', which Core Data cannot infer and no mapping model covers: 134140 \"\(StageSimulation.Reason.noMapping)\"",
                                       at: location, versions: [run.version, jump.from, jump.to]))
        }
        for run in starts where run.error == nil {
            for jump in run.jumps where !jump.lostComparedToSteps.isEmpty {
                let lost = jump.lostComparedToSteps.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
                findings.append(Diagnostic(.stageJumpDropsData, "a store at '\(run.version)' jumps '\(jump.from)' → '\(jump.to)' in one inferred mapping, which drops \(lost) that stepping through the versions between keeps (lightweight stages do not step)",
                                           at: location, versions: [run.version, jump.from, jump.to]))
            }
        }
        return findings
    }
}

