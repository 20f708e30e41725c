import ChainPlanCore
/// Core Data's staged-migration rules (reference §6.1) checked on a stage list: the one chainplan
/// synthesises, or one a user wrote (`chainplan stage --check`). Each rule is a method in the file
/// of its code (`Rules/`): structural checks (what the stage and manager initializers refuse,
/// fact 6 and the exception table), then what the simulated starts run into (facts 2–7).
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

    func shown(_ key: String) -> String { "'\(name(key))'" }

    func at(_ stage: Int) -> SourceLocation { stage < locations.count ? locations[stage] : location }

    /// The stage keys any stage lists.
    var listed: Set<String> { Set(stages.flatMap(\.keys)) }

    /// Every rule's findings (each rule in its file under `Rules/`); the caller sorts them.
    func findings() -> [Diagnostic] {
        duplicateChecksumsInStages() + checksumsAcrossStages() + equalCustomEndpoints() + staleChecksums()
            + appModelNotStaged() + versionsNotStaged() + stageCycles()
            + backwardStages() + stagesEndOffAppModel() + handlersOffCurrentModel() + stageJumpsThatFail() + stageJumpsThatDropData()
    }

    /// One finding of `code` for the starts that `matching` picks (none when it picks none).
    func startGroup(_ code: DiagnosticCode, _ matching: (StageRun) -> Bool, _ message: ([StageRun]) -> String) -> [Diagnostic] {
        let runs = starts.filter(matching)
        guard !runs.isEmpty else { return [] }
        return [Diagnostic(code, message(runs), at: location, versions: runs.map(\.version))]
    }

}
