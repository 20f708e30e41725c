import ChainPlanCore

extension DiagnosticCode {
    /// CP113 NoCurrentVersion: the bundle does not say which version is current.
    ///
    /// Raised in `ModelBundleReader.swift`, `TargetCheck.swift`, `TargetResolution.swift`.
    public static let noCurrentVersion = DiagnosticCode(
        "CP113", name: "NoCurrentVersion", severity: .warning,
        summary: "The bundle does not say which version is current",
        help: "`.xccurrentversion` is missing or empty and the bundle has several versions. Xcode picks one silently; set the current version in Xcode's model inspector.",
        examples: [
            .project("two versions and no .xccurrentversion", files: Array(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]).dropLast()), expected: 1),
            .project(".xccurrentversion names V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}
