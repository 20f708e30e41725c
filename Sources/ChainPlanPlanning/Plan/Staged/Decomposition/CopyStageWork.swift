import ChainPlanReaders
extension StageSynthesis {
    /// The copy a marked custom stage `current → next` does when it is the expand half of expand →
    /// copy → contract: `next` holds both an attribute and the new entity it moves into, and the
    /// step after (`next → following`) removes the attribute (`MovedAttributes` between `current`
    /// and `following`). Example: Chains/aircraft-staged, stage 'Aircraft V2' → 'Aircraft V3' copies
    /// `Aircraft.flightData` into `FlightData.data` linked by `Aircraft.flightRecord`.
    static func copyWork(bundle: ModelBundle, current: String, next: String, following: String?) -> [DataWork] {
        guard let following, let old = bundle.version(named: current)?.model, let middle = bundle.version(named: next)?.model,
              let new = bundle.version(named: following)?.model else { return [] }
        return MovedAttributes.find(old: old, new: new).compactMap { move in
            guard let entity = middle.entity(named: move.entity), middle.entity(named: move.destination) != nil,
                  entity.relationships.contains(where: { $0.name == move.relationship.name && $0.destinationEntity == move.destination }) else { return nil }
            let pairs = move.pairs.filter { pair in entity.attributes.contains { $0.name == pair.from } }
            guard !pairs.isEmpty else { return nil }
            return DataWork.copy(entity: move.entity, relationship: move.relationship, destination: move.destination, pairs: pairs)
        }
    }
}

extension StageSynthesis {
    /// The filling a marked custom stage `current → next` does when `next` makes attributes of
    /// `current` mandatory without a default (`MandatoryWithoutDefault`, attributes that exist at
    /// `current` only): its `willMigrate` handler gives the empty ones a value.
    static func fillWork(bundle: ModelBundle, current: String, next: String) -> [DataWork] {
        guard let old = bundle.version(named: current)?.model, let new = bundle.version(named: next)?.model else { return [] }
        return DataWork.fills(MandatoryWithoutDefault.find(old: old, new: new).filter(\.existed))
    }
}

extension DataWork {
    /// Per entity, fill the empty values of `targets` before they become mandatory.
    static func fills(_ targets: [MandatoryWithoutDefault]) -> [DataWork] {
        let byEntity = Dictionary(grouping: targets, by: \.entity)
        return byEntity.keys.sorted().map { entity in
            let names = (byEntity[entity] ?? []).map(\.attribute)
            let shown = names.map { "'\(entity).\($0)'" }.joined(separator: ", ")
            return DataWork(entity: entity, nextEntity: entity, read: [], write: names,
                            detail: "fill the empty \(shown) before \(names.count == 1 ? "it becomes" : "they become") mandatory",
                            fillTypes: (byEntity[entity] ?? []).map(\.type))
        }
    }

    /// Copy `pairs` of each `entity` object into a new `destination` object linked by `relationship`.
    static func copy(entity: String, relationship: Relationship, destination: String, pairs: [CopyIntoEntity.Pair]) -> DataWork {
        let from = pairs.map { "'\(entity).\($0.from)'" }.joined(separator: ", ")
        let to = pairs.map { "'\($0.to)'" }.joined(separator: ", ")
        return DataWork(entity: entity, nextEntity: entity, read: pairs.map(\.from), write: [relationship.name],
                        detail: "copy \(from) into a new '\(destination)' (\(to)) linked by '\(entity).\(relationship.name)'",
                        copy: CopyIntoEntity(relationship: relationship.name, toMany: relationship.isToMany, destinationEntity: destination, attributes: pairs))
    }
}
