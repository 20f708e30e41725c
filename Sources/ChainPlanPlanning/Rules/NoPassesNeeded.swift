import ChainPlanCore

extension DiagnosticCode {
    /// CP706 NoPassesNeeded: `passes` was asked for a step that is not heavyweight.
    ///
    /// Raised by `chainplan passes` for a step that is not heavyweight (`noPassesNeeded`, below).
    package static let noPassesNeeded = DiagnosticCode(
        "CP706", name: "NoPassesNeeded", severity: .error, unusableInput: true,
        summary: "`passes` was asked for a step that is not heavyweight",
        help: "An inferred step runs in SQL in place and loads no objects; a step between hash-equal versions runs no migration. Passes only bound the memory of a mapping-model (heavyweight) migration.",
        examples: [
            .project("passes for V1 → V2, which adds an optional attribute (inferred in SQL in place)", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                         passes: StepKey(from: "V1", to: "V2"), expected: 1),
            .project("V2 changes 'title' from String to Integer 64 (heavyweight)", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithNumericTitle]),
                         passes: StepKey(from: "V1", to: "V2"), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a step `from` → `to` that Core Data infers in place, or (`equalHashes`)
    /// whose versions hash alike, so that no migration runs.
    static func noPassesNeeded(equalHashes: Bool, from: String, to: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.noPassesNeeded, equalHashes
                       ? "'\(from)' and '\(to)' have equal version hashes: Core Data runs no migration, no passes needed"
                       : "'\(from)' → '\(to)' is inferred in SQL in place: no passes needed (an inferred migration loads no objects)",
                   at: location, versions: [from, to])
    }
}
