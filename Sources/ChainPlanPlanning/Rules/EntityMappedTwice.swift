import ChainPlanCore

extension DiagnosticCode {
    /// CP702 EntityMappedTwice: two entity mappings copy the same source entity into the same destination entity.
    package static let entityMappedTwice = DiagnosticCode(
        "CP702", name: "EntityMappedTwice", severity: .error,
        summary: "Two entity mappings copy the same source entity into the same destination entity",
        help: "Both run, so every object is created twice in the destination (or the second pass fails on a uniqueness constraint). Keep one of them.",
        examples: [
            .project("StepOne and StepTwo both copy Note into Note", files: RuleExampleFixtures.project([RuleExampleFixtures.noteTag, RuleExampleFixtures.noteTag])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note"), ("Tag", "Tag")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 1),
            .project("each entity in one pass", files: RuleExampleFixtures.project([RuleExampleFixtures.noteTag, RuleExampleFixtures.noteTag])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")])],
                expected: 0),
        ])
}

/// CP702: two entity mappings of a step's mapping model(s) map the same source entity to the same
/// destination entity: every object is created twice (two passes each copy it).
///
/// Examples (InputExamples runs them): `StepOne` and `StepTwo` both with `NoteToNote` → one
/// finding; `NoteToNote` in one and `NoteToArchive` in the other → none (one source may feed
/// several destination entities).
enum MappedTwiceCheck {
    static func check(_ set: PassSet) -> [Diagnostic] {
        var seen: [String: PassEntityMapping] = [:]
        var findings: [Diagnostic] = []
        for mapping in set.passes.flatMap({ $0 }) {
            guard let from = mapping.source, let to = mapping.destination else { continue }
            let pair = "\(from)\u{0}\(to)"
            if let first = seen[pair] {
                findings.append(Diagnostic(.entityMappedTwice,
                    "entity mapping '\(mapping.name)'\(mapping.mappingModel.map { " of '\($0)'" } ?? "") maps '\(from)' to '\(to)' again ('\(first.name)'\(first.mappingModel.map { " of '\($0)'" } ?? "") already does): every object is created twice; keep one",
                    at: mapping.location, versions: set.versions))
            } else {
                seen[pair] = mapping
            }
        }
        return findings
    }
}
