import ChainPlanInference
/// A stage as the runtime sees it: by key (a checksum, or a version name when checksums are not
/// known), for simulating a plan chainplan made or a stage list a user wrote.
package struct RuntimeStage: Sendable, Hashable {
    package var kind: MigrationStage.Kind
    /// Lightweight: members; custom: `[current, next]`.
    package var keys: [String]
    package var hasHandlers: Bool

    package init(kind: MigrationStage.Kind, keys: [String], hasHandlers: Bool) {
        self.kind = kind
        self.keys = keys
        self.hasHandlers = hasHandlers
    }

    var current: String? { kind == .custom ? keys.first : nil }
    var next: String? { kind == .custom && keys.count > 1 ? keys[1] : nil }
}

/// How one jump (the store's actual model straight to a target) goes: judged by the classifier.
package struct JumpJudgement: Sendable, Hashable {
    package var migration: MigrationKind
    package var inferable: Bool?
    package var mappingModel: String?
    /// Data the jump drops that stepping through the versions in between keeps.
    package var lostComparedToSteps: [String]
    /// Why it fails, when it does.
    package var blocking: [String]
    /// An inferred jump flagged "could fail validation": the checks that decide it (nil when none).
    package var validation: [ValidationCheck]? = nil

    /// Core Data finds no mapping model and cannot infer one (134140), or a model is unreadable.
    package var fails: Bool { (migration == .heavyweight && mappingModel == nil) || migration == .unknown }

    package init(migration: MigrationKind, inferable: Bool?, mappingModel: String?, lostComparedToSteps: [String], blocking: [String]) {
        self.migration = migration
        self.inferable = inferable
        self.mappingModel = mappingModel
        self.lostComparedToSteps = lostComparedToSteps
        self.blocking = blocking
    }

    var label: String {
        if fails { return migration == .unknown ? "unknown" : "fails" }
        return migration.rawValue
    }
}

/// Core Data's staged migration at runtime, reference §6.1 facts 1–7, for one store.
package enum StageSimulation {
    /// The exact reasons of §6.1's error table.
    package enum Reason {
        package static let incompatible = "The model used to open the store is incompatible with the one used to create the store"
        package static let incompatibleAfterMigration = "Incompatible metadata after migration because the store version hashes didn't migrate."
        package static let unknownCoordinatorModel = "Cannot use staged migration with an unknown coordinator model version."
        package static let unknownModel = "Cannot use staged migration with an unknown model version."
        package static let backward = "A store file cannot be migrated backwards with staged migration."
        package static let noMapping = "Can't find or automatically infer mapping model for migration"
        package static let duplicateInStage = "Duplicate version checksums detected."
        package static let equalEndpoints = "The current model reference and the next model reference cannot be equal."
        package static let duplicateAcrossStages = "Duplicate version checksums across stages detected."
    }

    /// Simulates a store whose metadata checksum is `store` opened by an app whose model is `app`.
    /// `name` shows a key as a version name; `judge` classifies a jump between two keys.
    package static func run(store: String, app: String, stages: [RuntimeStage], version: String, checksum: String?,
                           name: (String) -> String, judge: (String, String) -> JumpJudgement) -> StageRun {
        run(store: store, app: app, stages: stages, index: RuntimeStageIndex(stages), version: version, checksum: checksum,
            name: name, judge: judge)
    }

    /// The same, with `index` made once from `stages` for every start simulated on them.
    package static func run(store: String, app: String, stages: [RuntimeStage], index stageIndex: RuntimeStageIndex, version: String,
                           checksum: String?, name: (String) -> String, judge: (String, String) -> JumpJudgement) -> StageRun {
        var run = StageRun(version: version, checksum: checksum, locatedAt: nil, stagesRun: [], jumps: [], handlers: [],
                           error: nil, endsOn: nil, summary: "")
        // Fact 1: a compatible store runs nothing.
        if store == app {
            run.endsOn = name(app)
            run.summary = "compatible with the app model: no stage runs"
            return run
        }
        func fail(_ code: Int, _ reason: String, _ summary: String) -> StageRun {
            run.error = StageRun.ExpectedError(code: code, reason: reason)
            run.endsOn = nil
            run.summary = summary
            return run
        }
        // Fact 3: pre-flight; last match wins.
        let storeStage = stageIndex.lastHolding[store]
        guard let appStage = stageIndex.lastListing[app] else {
            return fail(134504, Reason.unknownCoordinatorModel, "the app model is in no stage")
        }
        if let storeStage {
            if stageIndex.lastLightweight != nil, let posS = stageIndex.positionInLastLightweight[store],
               let posC = stageIndex.positionInLastLightweight[app] {
                if posC < posS { return fail(134506, Reason.backward, "the app model comes before the store's in the last lightweight stage") }
            } else if appStage < storeStage {
                return fail(134506, Reason.backward, "the app model's stage (\(appStage + 1)) comes before the store's (\(storeStage + 1))")
            }
        }
        // Fact 2: the first stage listing the store's checksum.
        guard let index = stageIndex.located[store] else {
            return fail(134504, Reason.unknownModel, "the store's model is in no stage")
        }
        run.locatedAt = index
        var actual = store
        // Returns false when the jump fails (the run stops with 134140).
        func jump(to target: String, stage: Int?) -> Bool {
            guard target != actual else { return true }
            let judgement = judge(actual, target)
            run.jumps.append(StageRun.Jump(from: name(actual), to: name(target), stage: stage, migration: judgement.label,
                                           mappingModel: judgement.mappingModel, lostComparedToSteps: judgement.lostComparedToSteps,
                                           validation: judgement.validation))
            if judgement.fails { return false }
            actual = target
            return true
        }
        // Fact 4: only the last stage runs unless a custom stage remains.
        if index >= stages.count {
            guard jump(to: app, stage: nil) else { return fail(134140, Reason.noMapping, "the plain automatic migration's jump fails") }
        } else if (stageIndex.lastCustom ?? -1) < index {
            let last = stages.count - 1
            run.stagesRun = [last]
            guard jump(to: app, stage: last) else { return fail(134140, Reason.noMapping, "the lightweight jump fails") }
        } else {
            var position = index
            while position < stages.count {
                let stage = stages[position]
                switch stage.kind {
                case .lightweight:
                    var end = position
                    while end + 1 < stages.count, stages[end + 1].kind == .lightweight { end += 1 }
                    run.stagesRun += Array(position...end)
                    let target = end + 1 < stages.count ? (stages[end + 1].current ?? app) : app
                    guard jump(to: target, stage: end) else { return fail(134140, Reason.noMapping, "the lightweight jump fails") }
                    position = end + 1
                case .custom:
                    run.stagesRun.append(position)
                    guard let current = stage.current, let next = stage.next else { position += 1; continue }
                    if stage.hasHandlers {
                        run.handlers.append(StageRun.HandlerCall(stage: position, handler: .willMigrate, model: name(current)))
                        if actual != current {
                            return fail(134100, Reason.incompatible, "willMigrate opens the store at \(name(current)) but it is at \(name(actual))")
                        }
                    }
                    guard jump(to: next, stage: position) else { return fail(134140, Reason.noMapping, "the custom stage's jump fails") }
                    if stage.hasHandlers {
                        run.handlers.append(StageRun.HandlerCall(stage: position, handler: .didMigrate, model: name(next)))
                    }
                    position += 1
                }
            }
        }
        // Fact 7: the store must end exactly on the app model.
        guard actual == app else {
            return fail(134100, Reason.incompatibleAfterMigration, "the stages end on \(name(actual)), not the app model")
        }
        run.endsOn = name(app)
        let lost = run.jumps.flatMap(\.lostComparedToSteps)
        let jumps = run.jumps.count == 1 ? "one jump" : "\(run.jumps.count) jumps"
        run.summary = lost.isEmpty ? "\(jumps) to \(name(app))" : "\(jumps) to \(name(app)), dropping \(lost.count) item(s) stepping keeps"
        return run
    }
}
