import ChainPlanCore
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
