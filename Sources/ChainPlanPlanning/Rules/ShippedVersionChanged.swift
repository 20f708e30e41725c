import ChainPlanCore
import ChainPlanHistory

extension DiagnosticCode {
    /// CP401 ShippedVersionChanged: a shipped model version was edited.
    ///
    /// Raised by the shipped-versions check (`ShippedVersions.check(against:)`, with the message
    /// below), whether `chain.lock` or a git revision (`--against`) says what shipped.
    package static let shippedVersionChanged = DiagnosticCode(
        "CP401", name: "ShippedVersionChanged", severity: .error,
        summary: "A shipped model version was edited",
        help: "Its Core Data version hashes differ from those it shipped with, as `chain.lock` records them or as the revision given to `--against` holds them (the message names each entity, property and field that moved). Stores in users' hands record the original's hashes; an edited version no longer matches them, and Core Data fails to open those stores with error 134130 (\"Can't find model for source store\"). Restore the version and make the change in a new one.",
        examples: [
            .project("V1 gains an attribute after it was locked", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody]),
                     lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 1),
            .project("V2, the target, is not locked and may change", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithNumericTitle]),
                     lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
            .project("V1 gains an attribute after the release tagged 'shipped' (--against shipped)", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 1),
        ])
}

extension Diagnostic {
    /// The finding for the shipped version `name`, whose hashes changed since `source`:
    /// `changes` names what moved (empty when only the checksum shows it).
    /// `staged`: the app migrates by stages (a SwiftData plan with stages), so such stores fail
    /// with 134504 instead.
    static func shippedVersionChanged(_ name: String, changes: String, source: ShippedVersions.Source, staged: Bool = false,
                                      at location: SourceLocation) -> Diagnostic {
        let moved = changes.isEmpty ? "its checksum changed" : changes
        let failure = staged ? "fail with 134504 (\"\(StageSimulation.Reason.unknownModel)\")" : "crash with 134130 (\"Can't find model for source store\")"
        switch source {
        case .lock:
            return Diagnostic(.shippedVersionChanged, "the shipped version '\(name)' was edited after it was locked: its Core Data version hashes changed, "
                                  + "so stores it made no longer match it" + (staged ? " and \(failure)" : "") + ": \(moved)",
                              at: location, versions: [name])
        case .revision(let revision):
            return Diagnostic(.shippedVersionChanged, "the version '\(name)' shipped at \(revision.name) (\(revision.shortCommit)) and was edited since: its Core Data "
                                  + "version hashes changed, so users whose stores are at it \(failure): \(moved)",
                              at: location, versions: [name])
        }
    }
}
