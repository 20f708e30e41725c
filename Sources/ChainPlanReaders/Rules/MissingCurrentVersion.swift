import ChainPlanCore

extension DiagnosticCode {
    /// CP114 MissingCurrentVersion: `.xccurrentversion` names a version that does not exist.
    ///
    /// Raised in `ModelBundleReader.swift`.
    public static let missingCurrentVersion = DiagnosticCode(
        "CP114", name: "MissingCurrentVersion", severity: .error,
        summary: "`.xccurrentversion` names a version that does not exist",
        help: "The file names a `.xcdatamodel` folder that is not in the bundle; momc fails to compile it.",
        examples: [
            .project(".xccurrentversion names a version the bundle does not have",
                         files: Array(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]).dropLast()) + [RuleExampleFixtures.current("V3")], expected: 1),
            .project(".xccurrentversion names V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}
