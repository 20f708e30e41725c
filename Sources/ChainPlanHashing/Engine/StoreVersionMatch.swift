import Foundation

/// Which version(s) of a bundle a store's recorded hashes match, the way Core Data looks a
/// store's model up (§2): a version matches when its entity hashes equal the store's exactly
/// (§1.7); otherwise the nearest is the one with the most equal entity hashes (the first in
/// history order on a tie).
package struct StoreVersionMatch: Sendable, Hashable {
    package struct Nearest: Sendable, Hashable, Codable {
        package var version: String
        /// Entities whose hash equals the store's.
        package var equalEntities: Int
        /// Entities the store records.
        package var entities: Int
    }

    /// Versions whose hashes equal the store's, in history order.
    package var matches: [String]
    package var nearest: Nearest?

    package init(storeHashes: [String: Data], versions: [VersionHashes]) {
        self.init(storeHashes: storeHashes, candidates: versions.map { ($0.version, $0.hashes?.entities) })
    }

    /// `candidates`: each version's entity hashes in history order (nil: not hashable).
    package init(storeHashes: [String: Data], candidates: [(version: String, entities: [String: Data]?)]) {
        var matches: [String] = []
        var nearest: Nearest?
        for (version, entities) in candidates {
            guard let hashes = entities else { continue }
            if hashes == storeHashes { matches.append(version) }
            let equal = storeHashes.reduce(0) { $0 + (hashes[$1.key] == $1.value ? 1 : 0) }
            if equal > (nearest?.equalEntities ?? -1) {
                nearest = Nearest(version: version, equalEntities: equal, entities: storeHashes.count)
            }
        }
        if let first = matches.first {
            nearest = Nearest(version: first, equalEntities: storeHashes.count, entities: storeHashes.count)
        }
        self.matches = matches
        self.nearest = nearest
    }

    /// "matches 'V'", or "matches no version; nearest is 'V' (n of m entities equal)".
    package var summary: String {
        if !matches.isEmpty { return "matches " + matches.map { "'\($0)'" }.joined(separator: ", ") }
        guard let nearest else { return "matches no version (no version could be hashed)" }
        return "matches no version; nearest is '\(nearest.version)' (\(nearest.equalEntities) of \(nearest.entities) entities equal)"
    }
}
