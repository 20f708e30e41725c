import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP701 UnmappedEntity: a source entity the step keeps is mapped by no pass.
    ///
    /// Raised by `chainplan passes` (`unmappedEntities`, below).
    package static let unmappedEntity = DiagnosticCode(
        "CP701", name: "UnmappedEntity", severity: .error,
        summary: "A source entity the step keeps is mapped by no pass",
        help: "NSMigrationManager does not check that a mapping model covers every entity: a source entity no entity mapping reads is not migrated, and its objects are lost. Add an entity mapping for it to one of the passes.",
        examples: [
            .project("passes StepOne (Note) and StepTwo (Tag) of a step that keeps Note, Tag and Folder", files: RuleExampleFixtures.project([RuleExampleFixtures.noteTagFolder, RuleExampleFixtures.noteTagFolder])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")])],
                expected: 1),
            .project("StepThree maps Folder", files: RuleExampleFixtures.project([RuleExampleFixtures.noteTagFolder, RuleExampleFixtures.noteTagFolder])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")]),
                   RuleExampleFixtures.passMappingModel("StepThree", from: "V1", to: "V2", [("Folder", "Folder")])],
                expected: 0),
        ])
}

/// CP701: a source entity the step keeps is mapped by no entity mapping of the step's mapping
/// model(s): `migrateStore` does not check coverage (§8.1), so its objects are not migrated.
///
/// Examples (InputExamples runs them): passes `StepOne` (`NoteToNote`) and `StepTwo`
/// (`TagToTag`) of a step keeping `Note`, `Tag` and `Folder` → one finding, `Folder`; with a
/// third mapping model for `Folder` → none.
enum UnmappedEntityCheck {
    static func check(_ set: PassSet) -> [Diagnostic] {
        let coverage = PassPlanner.coverage(source: set.source, destination: set.destination, mappings: set.passes.flatMap { $0 })
        let names = set.models.map { "'\($0.name)'" }.joined(separator: ", ")
        return coverage.unmapped.map { entity in
            Diagnostic(.unmappedEntity,
                       "source entity '\(entity)' is kept by '\(set.from)' → '\(set.to)' but no entity mapping of \(names) maps it: its objects are not migrated (data loss); add an entity mapping for it",
                       at: set.sourceLocation(entity), versions: set.versions)
        }
    }
}

extension Diagnostic {
    /// One finding per source entity the step keeps that no entity mapping maps (`plan.coverage`).
    static func unmappedEntities(_ plan: PassPlan, source: ObjectModel, sourcePath: String, from: String, to: String) -> [Diagnostic] {
        plan.coverage.unmapped.map { entity in
            let declared = source.entity(named: entity)
            return Diagnostic(.unmappedEntity,
                "source entity '\(entity)' is kept by '\(from)' → '\(to)' but no entity mapping maps it: its objects are not migrated (data loss); add an entity mapping for it",
                at: SourceLocation(file: sourcePath, line: declared?.line, column: declared?.column), versions: [from, to])
        }
    }
}
