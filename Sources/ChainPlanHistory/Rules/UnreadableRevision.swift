import ChainPlanCore

extension DiagnosticCode {
    /// CP405 UnreadableRevision: the revision given to `--against` cannot be read.
    ///
    /// Raised when the shipped models are read from git (`ShippedBundle.read`), for one of the
    /// problems `RevisionProblem` lists.
    package static let unreadableRevision = DiagnosticCode(
        "CP405", name: "UnreadableRevision", severity: .error, unusableInput: true,
        summary: "The revision of the shipped models cannot be read",
        help: "`--against REV` reads the model bundle as the commit REV holds it, with the `git` executable. It needs git on PATH, the bundle inside a git work tree, and REV a commit of the clone: in a shallow clone (actions/checkout's default) fetch the history with `fetch-depth: 0`. A revision that starts with '-', names a path (':') or holds spaces or control characters is refused before git sees it.",
        examples: [
            .project("the revision is not a commit of the repository", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note]), against: "no-such-tag", expected: 1),
            .project("a revision that reads as an option", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note]), against: "--output=x", expected: 1),
            .project("a revision that names a path", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note]), against: "HEAD:../..", expected: 1),
            .project("the tag exists", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note]), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a revision that cannot be read, located at the input.
    package static func unreadableRevision(_ problem: RevisionProblem, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.unreadableRevision, "cannot read the shipped models: \(problem.reason)", at: location)
    }
}
