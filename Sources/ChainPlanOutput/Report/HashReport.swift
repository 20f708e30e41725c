import ChainPlanCore
import ChainPlanHashing
import Foundation

/// What `chainplan hash` prints: per version (history order) the checksum, digest and entity
/// hashes, or for a store what its metadata records and which versions it matches. Rendering
/// is pure: the same value always gives the same bytes.
package struct HashReport: Sendable, Hashable {
    package struct Version: Sendable, Hashable {
        package var version: String
        /// A SwiftData schema's `versionIdentifier` (`1.0.0`); nil for a model bundle's version.
        package var identifier: String?
        package var checksum: String
        package var digest: String
        /// Entity → base64 of the 32-byte hash.
        package var entities: [String: String]
        /// Entity → property → base64 (only with `--properties`).
        package var properties: [String: [String: String]]?
        /// Caveats (code-only or [open] rules) that make some hash unverified.
        package var unverified: [String]
        /// Why no hash could be computed (then the other fields are empty).
        package var failure: String?

        package init(version: String, checksum: String, digest: String, entities: [String: String],
                    properties: [String: [String: String]]? = nil, unverified: [String] = [], failure: String? = nil,
                    identifier: String? = nil) {
            self.version = version
            self.identifier = identifier
            self.checksum = checksum
            self.digest = digest
            self.entities = entities
            self.properties = properties
            self.unverified = unverified
            self.failure = failure
        }

        /// From computed hashes; `withProperties` adds every property hash.
        package init(_ hashes: VersionHashes, withProperties: Bool) {
            guard let computed = hashes.hashes else {
                self.init(version: hashes.version, checksum: "", digest: "", entities: [:], failure: hashes.failure?.message)
                return
            }
            let (checksum, digest) = VersionHasher.checksumAndDigest(computed.entities)
            self.init(version: hashes.version, checksum: checksum, digest: digest,
                      entities: computed.entities.mapValues { $0.base64EncodedString() },
                      properties: withProperties ? computed.properties.mapValues { $0.mapValues { $0.base64EncodedString() } } : nil,
                      unverified: computed.caveats.map(\.description))
        }
    }

    /// A store's recorded hashes and what they match.
    package struct Store: Sendable, Hashable {
        package var path: String
        package var checksum: String
        package var digest: String
        /// True when the store records the checksum / digest itself (else recomputed).
        package var recordsChecksum: Bool
        package var recordsDigest: Bool
        package var entities: [String: String]
        /// Versions whose hashes equal the store's (nil: no bundle given).
        package var matches: [String]?
        package var nearest: StoreVersionMatch.Nearest?

        package init(path: String, checksum: String, digest: String, recordsChecksum: Bool, recordsDigest: Bool,
                    entities: [String: String], matches: [String]?, nearest: StoreVersionMatch.Nearest?) {
            self.path = path
            self.checksum = checksum
            self.digest = digest
            self.recordsChecksum = recordsChecksum
            self.recordsDigest = recordsDigest
            self.entities = entities
            self.matches = matches
            self.nearest = nearest
        }
    }

    package var versions: [Version]
    package var store: Store?

    package init(versions: [Version] = [], store: Store? = nil) {
        self.versions = versions
        self.store = store
    }

    // MARK: - Text

    package func text() -> String {
        var out = ""
        if let store {
            out += "store \(store.path)\n"
            out += "  checksum \(store.checksum)\(store.recordsChecksum ? "" : " (recomputed: the store records none)")\n"
            out += "  digest   \(store.digest)\(store.recordsDigest ? "" : " (recomputed: the store records none)")\n"
            out += Self.entityLines(store.entities, properties: nil)
            if let matches = store.matches {
                out += matches.isEmpty ? "  matches no version" : "  matches " + matches.map { "'\($0)'" }.joined(separator: ", ")
                if matches.isEmpty, let nearest = store.nearest {
                    out += "; nearest is '\(nearest.version)' (\(nearest.equalEntities) of \(nearest.entities) entities equal)"
                }
                out += "\n"
            }
            return out
        }
        for version in versions {
            out += "\(version.version)\n"
            if let identifier = version.identifier { out += "  identifier \(identifier)\n" }
            if let failure = version.failure {
                out += "  no hashes: \(failure)\n"
                continue
            }
            out += "  checksum \(version.checksum)\n"
            out += "  digest   \(version.digest)\n"
            out += Self.entityLines(version.entities, properties: version.properties)
            for caveat in version.unverified { out += "  unverified: \(caveat)\n" }
        }
        return out
    }

    static func entityLines(_ entities: [String: String], properties: [String: [String: String]]?) -> String {
        let names = VersionHasher.sortedNames(entities.keys)
        let width = names.map(\.count).max() ?? 0
        var out = ""
        for name in names {
            out += "  \(padded(name, to: width))  \(entities[name] ?? "")\n"
            for (property, hash) in (properties?[name] ?? [:]).sorted(by: { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }) {
                out += "    .\(property)  \(hash)\n"
            }
        }
        return out
    }

    /// `name.padding(toLength: width, withPad: " ", startingAt: 0)`, without Foundation's
    /// bridging for ASCII names (every one where UTF-16 length and character count agree).
    static func padded(_ name: String, to width: Int) -> String {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.padding(toLength: width, withPad: " ", startingAt: 0) }
        let length = name.utf8.count
        return length >= width ? String(name.prefix(width)) : name + String(repeating: " ", count: width - length)
    }

    // MARK: - JSON

    /// `{"versions": [{"version", "checksum", "digest", "entities"}]}` (with `identifier`,
    /// `properties`, `unverified` and `error` only when present), or for a store
    /// `{"store": {...}, "matches": [...], "nearest": {...}}`. Keys sorted.
    package func json() -> Data {
        var object: [String: Any] = [:]
        if let store {
            object["store"] = ["checksum": store.checksum, "digest": store.digest, "entities": store.entities] as [String: Any]
            if let matches = store.matches {
                object["matches"] = matches
                if let nearest = store.nearest {
                    object["nearest"] = ["version": nearest.version, "equalEntities": nearest.equalEntities,
                                         "entities": nearest.entities] as [String: Any]
                }
            }
        } else {
            object["versions"] = versions.map { version -> [String: Any] in
                var entry: [String: Any] = ["version": version.version]
                if let identifier = version.identifier { entry["identifier"] = identifier }
                if let failure = version.failure {
                    entry["error"] = failure
                    return entry
                }
                entry["checksum"] = version.checksum
                entry["digest"] = version.digest
                entry["entities"] = version.entities
                if let properties = version.properties { entry["properties"] = properties }
                if !version.unverified.isEmpty { entry["unverified"] = version.unverified }
                return entry
            }
        }
        JSONEnvelope.add(to: &object)
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }

    // MARK: - CoreStore

    /// CoreStore's `VersionLock` literal for each version, as CoreStore prints it: entities sorted
    /// by Swift string order, each hash as four `UInt64` (little-endian words) in lowercase hex.
    package func coreStore() -> String {
        var out = ""
        for version in versions {
            out += "// \(version.version)\n"
            if let failure = version.failure {
                out += "// no hashes: \(failure)\n\n"
                continue
            }
            for caveat in version.unverified { out += "// unverified: \(caveat)\n" }
            out += "versionLock: " + Self.versionLock(version.entities) + "\n\n"
        }
        return out
    }

    static func versionLock(_ entities: [String: String]) -> String {
        guard !entities.isEmpty else { return "[:]" }
        var lines: [String] = []
        for (name, encoded) in entities.sorted(by: { $0.key < $1.key }) {
            let bytes = [UInt8](Data(base64Encoded: encoded) ?? Data())
            var words: [String] = []
            var index = 0
            while index + 8 <= bytes.count {
                var word: UInt64 = 0
                for offset in (0..<8).reversed() { word = word << 8 | UInt64(bytes[index + offset]) }
                words.append("0x" + String(word, radix: 16, uppercase: false))
                index += 8
            }
            lines.append("    \"\(name)\": [\(words.joined(separator: ", "))]")
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]"
    }
}
