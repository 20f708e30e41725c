import ChainPlanReaders
import Foundation

/// The entity hashes a mapping model is matched by (§3): for an `.xcmappingmodel`, the hashes
/// of the embedded snapshots' entities that its entity mappings name (what its compiled `.cdm`
/// records); a version qualifies as source when those source hashes are a non-empty subset of
/// its own, as destination when the destination hashes are a subset.
package enum MappingHashes {
    /// Source entity → hash, nil when the source snapshot is missing or cannot be hashed.
    package static func source(of mapping: MappingModel) -> [String: Data]? {
        restricted(mapping.sourceModel, to: Set(mapping.entityMappings.compactMap(\.sourceEntity)))
    }

    /// Destination entity → hash, nil when the destination snapshot is missing or cannot be hashed.
    package static func destination(of mapping: MappingModel) -> [String: Data]? {
        restricted(mapping.destinationModel, to: Set(mapping.entityMappings.compactMap(\.destinationEntity)))
    }

    static func restricted(_ snapshot: ObjectModel?, to names: Set<String>) -> [String: Data]? {
        guard let snapshot, let hashes = try? ModelHasher.hash(snapshot).get() else { return nil }
        return hashes.entities.filter { names.contains($0.key) }
    }

    /// Versions (in the given order) for which `hashes` qualify: each equal by name, and
    /// non-empty when `nonEmpty`.
    package static func qualifying(_ hashes: [String: Data]?, among versions: [(name: String, entities: [String: Data])],
                                  nonEmpty: Bool) -> [String] {
        guard let hashes, !(nonEmpty && hashes.isEmpty) else { return [] }
        return versions.filter { version in hashes.allSatisfy { version.entities[$0.key] == $0.value } }.map(\.name)
    }

    /// The mapped entities whose hash in `version` differs from the snapshot's, each with why
    /// (`'Game': 'Game.isFavorite' (added)`).
    package static func staleEntities(snapshot: ObjectModel, recorded: [String: Data], version: ObjectModel,
                                     hashes: [String: Data]) -> [String] {
        let moved = recorded.filter { hashes[$0.key] != $0.value }
        guard !moved.isEmpty else { return [] }
        let snapshotHashes = (try? ModelHasher.hash(snapshot).get())?.entities ?? recorded
        let explained = HashDifference.changes(from: snapshot, snapshotHashes, to: version, hashes)
        return VersionHasher.sortedNames(moved.keys).map { name in
            guard hashes[name] != nil else { return "'\(name)' no longer exists" }
            let reasons = explained.first { $0.entity == name }?.reasons ?? []
            return "'\(name)' hash no longer matches" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")")
        }
    }

    /// The version with the most mapped entity hashes equal (first in order on a tie), with the
    /// entities that differ there; nil when nothing can be compared.
    package static func nearest(_ hashes: [String: Data]?, among versions: [(name: String, entities: [String: Data])])
        -> (version: String, differing: [String])? {
        guard let hashes, !hashes.isEmpty else { return nil }
        var best: (version: String, equal: Int)?
        for version in versions {
            let equal = hashes.reduce(0) { $0 + (version.entities[$1.key] == $1.value ? 1 : 0) }
            if equal > (best?.equal ?? -1) { best = (version.name, equal) }
        }
        guard let best, let entities = versions.first(where: { $0.name == best.version })?.entities else { return nil }
        return (best.version, VersionHasher.sortedNames(hashes.keys.filter { entities[$0] != hashes[$0] }))
    }
}
