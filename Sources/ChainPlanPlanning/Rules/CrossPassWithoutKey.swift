import ChainPlanCore

extension DiagnosticCode {
    /// CP704 CrossPassWithoutKey: a relationship crosses passes and the earlier side has no unique key.
    package static let crossPassWithoutKey = DiagnosticCode(
        "CP704", name: "CrossPassWithoutKey", severity: .warning,
        summary: "A relationship crosses passes and the earlier side has no unique key",
        help: "A relationship between entities of two passes is set in the later pass by fetching the already migrated object from the destination by a unique key (a uniqueness constraint); a value expression naming the other pass's entity mapping fails with \"Can't find mapping for name\". Add a uniqueness constraint to the entity, or merge the two passes.",
        examples: [
            .project("Note.folder set in the second pass, Folder has no unique key", files: RuleExampleFixtures.project([RuleExampleFixtures.noteInFolder(required: false, uniqueName: false), RuleExampleFixtures.noteInFolder(required: false, uniqueName: false)])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Folder", "Folder")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 1),
            .project("Folder's name is unique: the second pass fetches it by name", files: RuleExampleFixtures.project([RuleExampleFixtures.noteInFolder(required: false, uniqueName: true), RuleExampleFixtures.noteInFolder(required: false, uniqueName: true)])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Folder", "Folder")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 0),
        ])
}

/// CP704: a relationship between entities of two passes, where the entity of the earlier pass
/// has no uniqueness constraint. Associations do not cross `migrateStore` calls (§8.3): the later
/// pass must fetch the already migrated object from the destination by a unique key, and there is
/// none, so the relationship is left empty (or a value expression naming the other pass's entity
/// mapping fails with "Can't find mapping for name").
///
/// Examples (InputExamples runs them): `Note.folder` (optional) in `StepTwo`, `Folder` in
/// `StepOne` without a constraint → one finding; `Folder` with the uniqueness constraint `name`
/// → none.
enum CrossPassKeyCheck {
    static func check(_ set: PassSet) -> [Diagnostic] {
        let created = set.firstCreated
        let graph = PassGraph(destination: set.destination, mappings: set.passes.flatMap { $0 })
        var findings: [Diagnostic] = []
        for link in graph.links {
            let entity = graph.created[link.from], target = graph.created[link.to]
            guard let owner = created[entity], let other = created[target], owner.pass != other.pass else { continue }
            let laterIsOwner = owner.pass > other.pass
            // A link to a later pass with an inverse is set from the other side (checked there).
            if !laterIsOwner && link.hasInverse { continue }
            let earlier = laterIsOwner ? link.to : link.from
            guard graph.uniqueKey[earlier] == nil else { continue }
            let later = laterIsOwner ? owner : other
            findings.append(Diagnostic(.crossPassWithoutKey,
                "'\(entity).\(link.relationship)' links pass \(owner.pass + 1) ('\(set.models[owner.pass].name)') to pass \(other.pass + 1) ('\(set.models[other.pass].name)'): the later pass must fetch '\(graph.created[earlier])' from the destination by a unique key and it has no uniqueness constraint; add one, or merge the two passes",
                at: later.mapping.location, versions: set.versions))
        }
        return findings
    }
}
