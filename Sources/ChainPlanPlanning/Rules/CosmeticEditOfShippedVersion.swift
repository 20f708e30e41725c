import ChainPlanCore
import ChainPlanHistory

extension DiagnosticCode {
    /// CP406 CosmeticEditOfShippedVersion: a shipped version's file changed, its hashes did not.
    ///
    /// Raised by the shipped-versions check against a git revision (`ShippedVersions.check(against:)`).
    package static let cosmeticEditOfShippedVersion = DiagnosticCode(
        "CP406", name: "CosmeticEditOfShippedVersion", severity: .note,
        summary: "A shipped version's file changed but its Core Data hashes did not",
        help: "The version's `contents` differs from the revision given to `--against`, in what Core Data's version hashes do not read (element order, Xcode's layout, renaming identifiers, defaults, delete rules, indexes, user info). Stores made by it still open; a changed default or delete rule applies to objects created or deleted from now on.",
        examples: [
            .project("V1's entity moved in the diagram after it shipped", files: RuleExampleFixtures.project([RuleExampleFixtures.note.replacingOccurrences(of: "<entity name=\"Note\">", with: "<entity name=\"Note\" positionX=\"10\" positionY=\"20\">"), RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 1),
            .project("nothing shipped changed", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note]), expected: 0),
        ])
}

extension Diagnostic {
    /// The note for the shipped version `name`, whose file changed without moving a hash.
    static func cosmeticEditOfShippedVersion(_ name: String, revision: Revision, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.cosmeticEditOfShippedVersion, "the version '\(name)' shipped at \(revision.name) (\(revision.shortCommit)) and its file changed since, "
                       + "but not its Core Data version hashes: stores made by it still open",
                   at: location, versions: [name])
    }
}
