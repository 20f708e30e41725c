import ChainPlanCore
import ChainPlanHistory

extension DiagnosticCode {
    /// CP402 ShippedVersionMissing: a shipped version is no longer in the bundle.
    ///
    /// Raised by the shipped-versions check (`ShippedVersions.check(against:)`, with the message below).
    package static let shippedVersionMissing = DiagnosticCode(
        "CP402", name: "ShippedVersionMissing", severity: .error,
        summary: "A shipped version is no longer in the bundle",
        help: "A version that `chain.lock` records, or that the revision given to `--against` holds, was deleted, or renamed and edited (a rename that keeps its hashes is CP407). Stores at that version can no longer be opened: Core Data finds a store's model by its hashes and fails with 134130.",
        examples: [
            .project("V1 was locked and then deleted", files: [RuleExampleFixtures.spec(["V2", "V3"]), RuleExampleFixtures.version("V2", RuleExampleFixtures.note), RuleExampleFixtures.version("V3", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V3")],
                     lockedFiles: [RuleExampleFixtures.spec(["V1", "V2", "V3"]), RuleExampleFixtures.version("V1", RuleExampleFixtures.note), RuleExampleFixtures.version("V2", RuleExampleFixtures.note), RuleExampleFixtures.version("V3", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V3")],
                     expected: 1),
            .project("every locked version is still there", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), lockedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     expected: 0),
            .project("V1 shipped and was deleted (--against shipped)", files: [RuleExampleFixtures.spec(["V2", "V3"]), RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.version("V3", RuleExampleFixtures.noteWithNumericTitle), RuleExampleFixtures.current("V3")],
                     shippedFiles: [RuleExampleFixtures.spec(["V1", "V2"]), RuleExampleFixtures.version("V1", RuleExampleFixtures.note), RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V2")],
                     expected: 1),
        ])
}

extension Diagnostic {
    /// The finding for the shipped version `name`, which the bundle no longer has.
    static func shippedVersionMissing(_ name: String, source: ShippedVersions.Source, at location: SourceLocation) -> Diagnostic {
        switch source {
        case .lock:
            Diagnostic(.shippedVersionMissing, "the locked version '\(name)' is not in the bundle any more: stores at that version cannot be opened",
                       at: location, versions: [name])
        case .revision(let revision):
            Diagnostic(.shippedVersionMissing, "the version '\(name)' shipped at \(revision.name) (\(revision.shortCommit)) and is not in the bundle any more: "
                           + "stores at that version cannot be opened (134130)",
                       at: location, versions: [name])
        }
    }
}
