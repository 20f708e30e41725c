/// Whether the stage objects and the manager can be built at all (reference §6.1 fact 6 and the
/// exception table): a lightweight stage listing a checksum twice, or a custom stage whose two
/// checksums are equal, throws in that stage's initializer (the first such stage, in list order);
/// otherwise a checksum in two places fact 6 forbids, or a custom reference naming no version,
/// throws in the manager's. These are Objective-C exceptions, uncatchable in Swift: the app
/// crashes building the store description, before any store is opened, so no start runs a stage.
/// Example: `[{"kind": "lightweight", "checksums": [V1, V2, V2, V3]}]` → every start crashes with
/// NSLightweightMigrationStage's "Duplicate version checksums detected."
enum StageConstruction {
    static func failure(_ stages: [RuntimeStage], known: Set<String>) -> StageRun.ExpectedError? {
        for stage in stages {
            switch stage.kind {
            case .lightweight where Set(stage.keys).count != stage.keys.count:
                return StageRun.ExpectedError(code: 0, reason: StageSimulation.Reason.duplicateInStage, thrownBy: "NSLightweightMigrationStage's initializer")
            case .custom where stage.keys.count == 2 && stage.keys[0] == stage.keys[1]:
                return StageRun.ExpectedError(code: 0, reason: StageSimulation.Reason.equalEndpoints, thrownBy: "NSCustomMigrationStage's initializer")
            default:
                continue
            }
        }
        var lightweight: Set<String> = []
        var current: Set<String> = []
        var next: Set<String> = []
        var broken = false
        for stage in stages {
            switch stage.kind {
            case .lightweight:
                for key in stage.keys where !lightweight.insert(key).inserted { broken = true }
            case .custom:
                guard stage.keys.count == 2 else { continue }
                if !current.insert(stage.keys[0]).inserted || !next.insert(stage.keys[1]).inserted { broken = true }
                if !known.contains(stage.keys[0]) || !known.contains(stage.keys[1]) { broken = true }
            }
        }
        if !lightweight.isDisjoint(with: current.union(next)) { broken = true }
        return broken ? StageRun.ExpectedError(code: 0, reason: StageSimulation.Reason.duplicateAcrossStages, thrownBy: "NSStagedMigrationManager's initializer") : nil
    }

    /// What a start does when building the stages throws: nothing runs, the app crashes.
    static func crashed(_ run: StageRun, _ failure: StageRun.ExpectedError) -> StageRun {
        StageRun(version: run.version, checksum: run.checksum, locatedAt: nil, stagesRun: [], jumps: [], handlers: [], error: failure, endsOn: nil,
                 summary: "the app crashes building the stages, before the store is opened")
    }
}
