import ChainPlanCore

extension DiagnosticCode {
    /// CP707 NoEntityMappings: a heavyweight step has no possible entity mapping.
    ///
    /// Raised by `chainplan passes` (`noEntityMappings`, below).
    package static let noEntityMappings = DiagnosticCode(
        "CP707", name: "NoEntityMappings", severity: .error, unusableInput: true,
        summary: "A heavyweight step has no possible entity mapping",
        help: "No destination entity has a source entity with its key (renaming identifier, else name) and no mapping model maps one: there is nothing to migrate pass by pass. Write the step's mapping model.",
        examples: [
            .project("V2's entities share one renaming identifier (not inferable) and none has Note's key", files: RuleExampleFixtures.project([RuleExampleFixtures.note,
                #"<entity name="Memo" elementID="Paper"><attribute name="text" optional="YES" attributeType="String"/></entity><entity name="Card" elementID="Paper"><attribute name="text" optional="YES" attributeType="String"/></entity>"#]),
                         passes: StepKey(from: "V1", to: "V2"), expected: 1),
            .project("V2 keeps Note", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithNumericTitle]), passes: StepKey(from: "V1", to: "V2"), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a step `from` → `to` whose entity mappings (from `mappingModels`, or
    /// inferred when there are none) create no destination entity.
    static func noEntityMappings(from: String, to: String, mappingModels: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic(.noEntityMappings,
                   mappingModels.isEmpty
                       ? "'\(from)' → '\(to)' has no possible entity mapping: no destination entity has a source entity with its key (renaming identifier, else name); write the step's mapping model"
                       : "the mapping models of '\(from)' → '\(to)' (\(mappingModels.quotedList)) create no destination entity",
                   at: location, versions: [from, to])
    }
}
