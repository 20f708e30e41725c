import ChainPlanCore
import ChainPlanHistory

extension DiagnosticCode {
    /// CP408 CurrentVersionMovedBack: the current version is older than the one that shipped.
    ///
    /// Raised by the shipped-versions check against a git revision (`ShippedVersions.check(against:)`).
    package static let currentVersionMovedBack = DiagnosticCode(
        "CP408", name: "CurrentVersionMovedBack", severity: .error,
        summary: "The current version moved back to an older version than the one that shipped",
        help: "`.xccurrentversion` names a version that comes before the version that was current at the revision given to `--against` (in the bundle's version order). The app then opens stores already at the newer version with an older model: Core Data migrates them back, dropping what the newer version added, or fails to open them when it cannot infer that mapping. Make the change in a new version after the shipped one.",
        examples: [
            .project("V3 shipped as current, then V2 was made current", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.numericTitleWithBody]).filter { !$0.path.hasSuffix(".xccurrentversion") } + [RuleExampleFixtures.current("V2")],
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.numericTitleWithBody]), input: "Model.xcdatamodeld", expected: 1),
            .project("a new version becomes current", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.numericTitleWithBody]),
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), input: "Model.xcdatamodeld", expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a current version `current` before `shipped`, current at `revision`.
    static func currentVersionMovedBack(to current: String, from shipped: String, revision: Revision, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.currentVersionMovedBack, "the current version is '\(current)', older than '\(shipped)', which was current at \(revision.name) (\(revision.shortCommit)): "
                       + "stores already at '\(shipped)' would be migrated back to '\(current)' (losing what '\(shipped)' added) or fail to open",
                   at: location, versions: [current, shipped])
    }
}
