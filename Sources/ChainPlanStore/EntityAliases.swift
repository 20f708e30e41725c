import ChainPlanReaders
/// Old entity names a store may still use for a model's entities.
///
/// A store migrated across an entity rename keeps the old name in `Z_PRIMARYKEY`: CoreDataPlus's
/// `SampleModel_V2.sqlite` still says `ExpensiveSportCar` for `SampleModel2`'s `LuxuryCar`,
/// whose renaming identifier is `ExpensiveSportCar`. Core Data matches them by the renaming
/// identifier, so the old name stands for the new one. Every reader of store entity names
/// (the structural fingerprint, the simulation's live schema, the dry run's rows per entity)
/// resolves them here, by the same rule.
enum EntityAliases {
    /// Renaming identifier → entity name, for the entities of `model` whose renaming identifier
    /// differs from their name and names no other entity of the model.
    static func of(_ model: ObjectModel) -> [String: String] {
        let names = Set(model.entities.map(\.name))
        var aliases: [String: String] = [:]
        for entity in model.entities {
            guard let old = entity.renamingIdentifier, !old.isEmpty, old != entity.name, !names.contains(old) else { continue }
            if aliases[old] == nil { aliases[old] = entity.name }
        }
        return aliases
    }

    /// The aliases that apply to a store whose entities are `present`: the old name is there
    /// and the new one is not (a store that has both keeps both as they are).
    static func applicable(_ aliases: [String: String], present: Set<String>) -> [String: String] {
        aliases.filter { present.contains($0.key) && !present.contains($0.value) }
    }

    /// `name` as the model calls it.
    static func resolve(_ name: String, _ applicable: [String: String]) -> String {
        applicable[name] ?? name
    }
}
