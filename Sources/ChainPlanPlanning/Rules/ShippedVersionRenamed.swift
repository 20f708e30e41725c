import ChainPlanCore

extension DiagnosticCode {
    /// CP407 ShippedVersionRenamed: a shipped version is in the bundle under a new name.
    ///
    /// Raised by the shipped-versions check (`ShippedVersions.check(against:)`).
    package static let shippedVersionRenamed = DiagnosticCode(
        "CP407", name: "ShippedVersionRenamed", severity: .note,
        summary: "A shipped version is in the bundle under a new name",
        help: "No version has the shipped name any more, but a version that did not ship has exactly its Core Data version hashes. Core Data finds a store's model by its hashes, not its name, so stores at it still open; a spec, a lock or a staged plan that names the old version needs the new name.",
        examples: [
            .project("V1 renamed to Model 1 (--against shipped)", files: [RuleExampleFixtures.spec(["Model 1", "V2"]), RuleExampleFixtures.version("Model 1", RuleExampleFixtures.note), RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V2")],
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 1),
            .project("V1 renamed and edited is missing, not renamed (CP402)", files: [RuleExampleFixtures.spec(["Model 1", "V2"]), RuleExampleFixtures.version("Model 1", RuleExampleFixtures.noteWithNumericTitle), RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V2")],
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension Diagnostic {
    /// The note for the shipped version `name`, now in the bundle as `newName`.
    static func shippedVersionRenamed(_ name: String, to newName: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.shippedVersionRenamed, "the shipped version '\(name)' is now named '\(newName)', with the same Core Data version hashes: "
                       + "stores at it still open (Core Data finds their model by its hashes)",
                   at: location, versions: [name, newName])
    }
}
