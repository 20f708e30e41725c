import ChainPlanCore
import ChainPlanHistory

extension DiagnosticCode {
    /// CP409 BundleNotAtRevision: the revision has no model bundle at the bundle's path.
    ///
    /// Raised by the loading stage when `--against` reads the shipped models (`ProjectLoader`).
    package static let bundleNotAtRevision = DiagnosticCode(
        "CP409", name: "BundleNotAtRevision", severity: .note,
        summary: "The revision has no model bundle at this path: nothing is checked against it",
        help: "The bundle is new since the revision given to `--against`, or it was moved: no version at this path had shipped there, so no shipped version is checked. After a move, check against a revision that has the bundle at its new path.",
        examples: [
            .project("the bundle was added after the revision", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: [RuleExample.File("README.md", "An app without a model yet.\n")], expected: 1),
            .project("the bundle was there", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note]), expected: 0),
        ])
}

extension Diagnostic {
    /// The note for a bundle that `revision` does not have.
    static func bundleNotAtRevision(_ bundle: String, revision: Revision, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.bundleNotAtRevision, "the model bundle '\(bundle)' is not at \(revision.name) (\(revision.shortCommit)): no version of it had shipped there, so none is checked",
                   at: location)
    }
}
