import ChainPlanCore

extension DiagnosticCode {
    /// CP403 UnreadableLock: the lock file cannot be read.
    ///
    /// Raised in `ChainLock.swift`, `ChainPlanner.swift`.
    public static let unreadableLock = DiagnosticCode(
        "CP403", name: "UnreadableLock", severity: .error, unusableInput: true,
        summary: "The lock file cannot be read",
        help: "`chain.lock` beside the spec is not a file chainplan wrote, was edited by hand, or was written by an older chainplan (fingerprints, not Core Data's hashes). Regenerate it with `chainplan lock --force` from the commit that shipped.",
        examples: [
            .project("a lock line edited by hand", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("chain.lock", "version \"V1\" not-a-fingerprint\n")], expected: 1),
            .project("a lock written before Core Data's hashes", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("chain.lock", "version \"V1\" 0123456789abcdef\n")], expected: 1),
            .project("no lock", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}
