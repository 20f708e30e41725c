import ChainPlanCore

extension DiagnosticCode {
    /// CP113 NoCurrentVersion: the bundle does not say which version is current.
    ///
    /// Raised when a bundle is read (`noCurrentVersion`, `unreadableCurrentVersion`, below).
    package static let noCurrentVersion = DiagnosticCode(
        "CP113", name: "NoCurrentVersion", severity: .warning,
        summary: "The bundle does not say which version is current",
        help: "`.xccurrentversion` is missing or empty and the bundle has several versions. Xcode picks one silently; set the current version in Xcode's model inspector.",
        examples: [
            .project("two versions and no .xccurrentversion", files: Array(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]).dropLast()), expected: 1),
            .project(".xccurrentversion names V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a bundle of `count` versions that names no current one (`why`: how).
    static func noCurrentVersion(_ why: String, versions count: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.noCurrentVersion, "\(why); the bundle has \(count) versions and no current one", at: location)
    }

    /// The finding for an `.xccurrentversion` that cannot be read (`why`), and is ignored.
    static func unreadableCurrentVersion(_ why: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.noCurrentVersion, "'.xccurrentversion' \(why); it is ignored", at: location)
    }
}
