import ChainPlanCore

extension DiagnosticCode {
    /// CP114 MissingCurrentVersion: `.xccurrentversion` names a version that does not exist.
    ///
    /// Raised when a bundle is read (`missingCurrentVersion`, below).
    package static let missingCurrentVersion = DiagnosticCode(
        "CP114", name: "MissingCurrentVersion", severity: .error,
        summary: "`.xccurrentversion` names a version that does not exist",
        help: "The file names a `.xcdatamodel` folder that is not in the bundle; momc fails to compile it.",
        examples: [
            .project(".xccurrentversion names a version the bundle does not have",
                         files: Array(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]).dropLast()) + [RuleExampleFixtures.current("V3")], expected: 1),
            .project(".xccurrentversion names V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for an `.xccurrentversion` that names `name`, which the bundle lacks (`hint`:
    /// the nearest name, if any).
    static func missingCurrentVersion(_ name: String, hint: String?, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.missingCurrentVersion, "'.xccurrentversion' names version '\(name)', which is not in the bundle"
                       + (hint.map { " (did you mean '\($0)'?)" } ?? ""),
                   at: location, versions: [name])
    }
}
