import ChainPlanCore

extension DiagnosticCode {
    /// CP514 IntermediateVersionExists: a version `stage --write-models` would write exists already.
    ///
    /// Raised by `chainplan stage --write-models` (`intermediateVersionExists`, below).
    public static let intermediateVersionExists = DiagnosticCode(
        "CP514", name: "IntermediateVersionExists", severity: .error, unusableInput: true,
        summary: "A version `stage --write-models` would write exists already",
        help: "`chainplan stage --write-models` writes each decomposition's intermediate version as a new `.xcdatamodel` folder and never overwrites one: a shipped model edited in place fails on users' devices with 134504 (its checksum changes). Nothing is written when any name exists. A folder left by an earlier run is usually that run's output: plan the chain it printed (the new version listed, its custom step under `stages`); otherwise rename or remove the folder.",
        examples: [
            .project("V2 moves 'flightData' into a new entity; 'V1 step 1', the decomposition's intermediate, is in the bundle already",
                         files: RuleExampleFixtures.project([RuleExampleFixtures.aircraft, RuleExampleFixtures.aircraftWithFlightData]) + [RuleExampleFixtures.version("V1 step 1", RuleExampleFixtures.aircraftWithFlightData)], writesModels: true, expected: 1),
            .project("the intermediate version is not there yet: it is written", files: RuleExampleFixtures.project([RuleExampleFixtures.aircraft, RuleExampleFixtures.aircraftWithFlightData]), writesModels: true, expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for the version `name`, not written because its folder `folder` exists.
    static func intermediateVersionExists(_ name: String, folder: String) -> Diagnostic {
        Diagnostic(.intermediateVersionExists, "cannot write the version '\(name)': '\(folder)' exists and is never overwritten; if an earlier --write-models wrote it, plan the chain it printed, else rename or remove it first",
                   at: SourceLocation(file: folder), versions: [name])
    }
}
