import ChainPlanCore

extension DiagnosticCode {
    /// CP401 LockedVersionChanged: a shipped (locked) model version was edited.
    ///
    /// Raised by the lock check (`ChainLock.check(against:lockFile:)`, with the message below).
    package static let lockedVersionChanged = DiagnosticCode(
        "CP401", name: "LockedVersionChanged", severity: .error,
        summary: "A shipped (locked) model version was edited",
        help: "Its Core Data version hashes differ from those `chain.lock` records (the message names each entity, property and field that moved). Stores in users' hands record the original's hashes; an edited version no longer matches them.",
        examples: [
            .project("V1 gains an attribute after it was locked", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody]),
                         lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 1),
            .project("V2, the target, is not locked and may change", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithNumericTitle]),
                         lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for the locked version `name`, whose hashes changed: `changes` names what
    /// moved (empty when only the checksum shows it).
    static func lockedVersionChanged(_ name: String, changes: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.lockedVersionChanged, "the shipped version '\(name)' was edited after it was locked: its Core Data version hashes changed, "
                       + "so stores it made no longer match it: \(changes.isEmpty ? "its checksum changed" : changes)",
                   at: location, versions: [name])
    }
}
