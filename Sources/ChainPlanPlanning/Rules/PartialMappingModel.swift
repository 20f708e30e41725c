import ChainPlanCore

extension DiagnosticCode {
    /// CP705 PartialMappingModel: a mapping model that covers part of a step sits in the bundle.
    package static let partialMappingModel = DiagnosticCode(
        "CP705", name: "PartialMappingModel", severity: .warning,
        summary: "A mapping model that covers part of a step sits in the bundle",
        help: "Core Data's automatic migration takes any bundled mapping model whose entity hashes are a subset of the models', so it can pick one pass's mapping model instead of the full migration and silently drop the entities it does not map. Keep one full mapping model and build each pass's NSMappingModel from a subset of its entity mappings at run time (`chainplan passes --format swift`).",
        examples: [
            .project("StepOne (Note) and StepTwo (Tag) each map part of the step", files: RuleExampleFixtures.project([RuleExampleFixtures.noteTag, RuleExampleFixtures.noteTag])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")])],
                expected: 2),
            .project("one mapping model maps both", files: RuleExampleFixtures.project([RuleExampleFixtures.noteTag, RuleExampleFixtures.noteTag])
                + [RuleExampleFixtures.passMappingModel("NotesToNotes", from: "V1", to: "V2", [("Note", "Note"), ("Tag", "Tag")])],
                expected: 0),
        ])
}

/// CP705: a mapping model of a pass set maps only part of the step and sits in the bundle. Core
/// Data's automatic migration takes any bundled mapping model whose entity hashes are a subset of
/// the models' (§3.2), so it can pick this one instead of running the passes, and the entities it
/// does not map are dropped (§8.3). Build each pass's `NSMappingModel` at run time from one full
/// mapping model instead (`chainplan passes --format swift`), or keep the parts out of the app.
///
/// Examples (InputExamples runs them): `StepOne` (`NoteToNote`) and `StepTwo` (`TagToTag`)
/// for a step keeping `Note` and `Tag` → two findings; one mapping model with both → none.
enum PartialMappingModelCheck {
    static func check(_ set: PassSet) -> [Diagnostic] {
        set.models.compactMap { model in
            let missing = PassPlanner.coverage(source: set.source, destination: set.destination, mappings: PassEntityMapping.of(model)).unmapped
            guard !missing.isEmpty else { return nil }
            return Diagnostic(.partialMappingModel,
                "mapping model '\(model.name)' maps part of '\(set.from)' → '\(set.to)' (one pass of \(set.models.count)); Core Data's automatic migration can pick it alone and drop what it does not map (\(missing.quotedList)); build the passes from one full mapping model at run time",
                at: SourceLocation(file: model.documentPath, line: model.line), versions: set.versions)
        }
    }
}
