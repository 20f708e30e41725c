import ChainPlanCore

extension DiagnosticCode {
    /// CP210 UnverifiedChange: a change Core Data infers with an unverified or data-dependent outcome.
    ///
    /// Raised in `NotHashed.swift`, `RelationshipDestinationChange.swift`, `UniquenessConstraintChange.swift`.
    public static let unverifiedChange = DiagnosticCode(
        "CP210", name: "UnverifiedChange", severity: .warning,
        summary: "A change Core Data infers with an unverified or data-dependent outcome",
        help: "For example a relationship pointing at another entity (the builder does not compare destinations), a new uniqueness constraint (the migration fails on stores with duplicates), or a value transformer change (no migration converts the stored bytes). Test the migration on a real store.",
        examples: [
            .versions("a relationship points at another surviving entity (outcome unverified)", versions: [
                RuleExampleFixtures.note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + RuleExampleFixtures.tag + RuleExampleFixtures.folder,
                RuleExampleFixtures.note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#) + RuleExampleFixtures.tag + RuleExampleFixtures.folder,
            ], expected: 1),
            .versions("a to-one relationship becomes to-many", versions: [RuleExampleFixtures.toOneTags, RuleExampleFixtures.toManyTags], expected: 0),
        ])
}
