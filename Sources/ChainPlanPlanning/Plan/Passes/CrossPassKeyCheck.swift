import ChainPlanCore
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
