import ChainPlanInference
/// A stage as the runtime sees it: by key (a checksum, or a version name when checksums are not
/// known), for simulating a plan chainplan made or a stage list a user wrote.
public struct RuntimeStage: Sendable, Hashable {
    public var kind: MigrationStage.Kind
    /// Lightweight: members; custom: `[current, next]`.
    public var keys: [String]
    public var hasHandlers: Bool

    public init(kind: MigrationStage.Kind, keys: [String], hasHandlers: Bool) {
        self.kind = kind
        self.keys = keys
        self.hasHandlers = hasHandlers
    }

    var current: String? { kind == .custom ? keys.first : nil }
    var next: String? { kind == .custom && keys.count > 1 ? keys[1] : nil }
}

/// How one jump (the store's actual model straight to a target) goes: judged by the classifier.
public struct JumpJudgement: Sendable, Hashable {
    public var migration: MigrationKind
    public var inferable: Bool?
    public var mappingModel: String?
    /// Data the jump drops that stepping through the versions in between keeps.
    public var lostComparedToSteps: [String]
    /// Why it fails, when it does.
    public var blocking: [String]

    /// Core Data finds no mapping model and cannot infer one (134140), or a model is unreadable.
    public var fails: Bool { (migration == .heavyweight && mappingModel == nil) || migration == .unknown }

    public init(migration: MigrationKind, inferable: Bool?, mappingModel: String?, lostComparedToSteps: [String], blocking: [String]) {
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
public enum StageSimulation {
    /// The exact reasons of §6.1's error table.
    public enum Reason {
        public static let incompatible = "The model used to open the store is incompatible with the one used to create the store"
        public static let incompatibleAfterMigration = "Incompatible metadata after migration because the store version hashes didn't migrate."
        public static let unknownCoordinatorModel = "Cannot use staged migration with an unknown coordinator model version."
        public static let unknownModel = "Cannot use staged migration with an unknown model version."
        public static let backward = "A store file cannot be migrated backwards with staged migration."
        public static let noMapping = "Can't find or automatically infer mapping model for migration"
        public static let duplicateInStage = "Duplicate version checksums detected."
        public static let equalEndpoints = "The current model reference and the next model reference cannot be equal."
        public static let duplicateAcrossStages = "Duplicate version checksums across stages detected."
    }

    /// Simulates a store whose metadata checksum is `store` opened by an app whose model is `app`.
    /// `name` shows a key as a version name; `judge` classifies a jump between two keys.
    public static func run(store: String, app: String, stages: [RuntimeStage], version: String, checksum: String?,
                           name: (String) -> String, judge: (String, String) -> JumpJudgement) -> StageRun {
        run(store: store, app: app, stages: stages, index: RuntimeStageIndex(stages), version: version, checksum: checksum,
            name: name, judge: judge)
    }

    /// The same, with `index` made once from `stages` for every start simulated on them.
    public static func run(store: String, app: String, stages: [RuntimeStage], index stageIndex: RuntimeStageIndex, version: String,
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
                                           mappingModel: judgement.mappingModel, lostComparedToSteps: judgement.lostComparedToSteps))
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
