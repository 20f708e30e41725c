import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import Foundation

/// A store's version by the entity hashes it records, computed for every version of the
/// bundle (§2): the versions whose hashes equal the store's, told apart by the store's version
/// identifiers when several (hash-identical versions) do; else none, with the nearest version.
/// A store written with a merged model (other models' entities beside this bundle's) matches a
/// version whose every entity hash it holds, when its other entities belong to no version.
enum StoreHashIdentification {
    struct Decision {
        /// Nil: the hashes decided that no version (or no single version) matches.
        var version: String?
    }

    /// Nil when no version can be hashed (the caller falls back to identifiers and structure).
    static func identify(metadata: StoreMetadata, versions: [ModelVersion], diagnostics: inout [Diagnostic]) -> Decision? {
        let hashed = zip(versions, Parallel.map(versions) { VersionHashes($0).hashes?.entities }).map { ($0, $1) }
        guard hashed.contains(where: { $0.1 != nil }) else { return nil }
        let recorded = metadata.modelVersionHashes
        let shown = metadata.displayPath
        let location = SourceLocation(file: shown)
        let match = StoreVersionMatch(storeHashes: recorded, candidates: hashed.map { ($0.0.name, $0.1) })
        var found = match.matches
        var merged = false
        if found.isEmpty {
            // A merged model: all of a version's hashes, and extras no version of the bundle has.
            let bundleEntities = Set(hashed.flatMap { $0.1?.keys.map { $0 } ?? [] })
            found = hashed.compactMap { version, entities in
                guard let entities, !entities.isEmpty, entities.allSatisfy({ recorded[$0.key] == $0.value }) else { return nil }
                let extras = Set(recorded.keys).subtracting(entities.keys)
                return !extras.isEmpty && extras.isDisjoint(with: bundleEntities) ? version.name : nil
            }
            merged = !found.isEmpty
        }
        if found.count > 1 {
            let wanted = Set(metadata.modelVersionIdentifiers.filter { !$0.isEmpty })
            let named = found.filter { name in
                versions.first { $0.name == name }?.model?.versionIdentifier.map(wanted.contains) ?? false
            }
            if named.count == 1 { found = named }
        }
        if found.count == 1 {
            if merged {
                let others = recorded.count - (hashed.first { $0.0.name == found[0] }?.1?.count ?? 0)
                diagnostics.append(.unknownStoreVersion(shown, .mergedModel(version: found[0], others: others), at: location))
            }
            return Decision(version: found[0])
        }
        if found.count > 1 {
            diagnostics.append(.ambiguousStoreVersion(shown, .entityHashes(found, identical: true), at: location))
            return Decision(version: nil)
        }
        var reasons = ["its entity hashes equal no version's"]
        if let nearest = match.nearest {
            reasons[0] += "; nearest is '\(nearest.version)' (\(nearest.equalEntities) of \(nearest.entities) entities equal)"
        }
        let identifiers = metadata.modelVersionIdentifiers.filter { !$0.isEmpty }
        let known = Set(versions.compactMap { $0.model?.versionIdentifier })
        let unknown = identifiers.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            reasons.append("it names model version identifier \(unknown.quotedList), which no version in the bundle has")
        }
        diagnostics.append(.unknownStoreVersion(shown, .noMatch(reasons: reasons, nearest: match.nearest?.version), at: location))
        return Decision(version: nil)
    }
}
