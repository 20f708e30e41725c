import ChainPlanCore

extension DiagnosticCode {
    /// CP402 LockedVersionMissing: the lock names a version the bundle no longer has.
    ///
    /// Raised by the lock check (`ChainLock.check(against:lockFile:)`, with the message below).
    package static let lockedVersionMissing = DiagnosticCode(
        "CP402", name: "LockedVersionMissing", severity: .error,
        summary: "The lock names a version the bundle no longer has",
        help: "A shipped version was deleted or renamed; stores at that version can no longer be opened.",
        examples: [
            .project("V1 was locked and then deleted", files: [RuleExampleFixtures.spec(["V2", "V3"]), RuleExampleFixtures.version("V2", RuleExampleFixtures.note), RuleExampleFixtures.version("V3", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V3")],
                         lockedFiles: [RuleExampleFixtures.spec(["V1", "V2", "V3"]), RuleExampleFixtures.version("V1", RuleExampleFixtures.note), RuleExampleFixtures.version("V2", RuleExampleFixtures.note), RuleExampleFixtures.version("V3", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V3")],
                         expected: 1),
            .project("every locked version is still there", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                         expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for the locked version `name`, which the bundle no longer has.
    static func lockedVersionMissing(_ name: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.lockedVersionMissing, "the locked version '\(name)' is not in the bundle any more: stores at that version cannot be opened",
                   at: location, versions: [name])
    }
}
