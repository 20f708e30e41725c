import ChainPlanCore
import Foundation

/// The version facts of a compiled model bundle (`X.momd/VersionInfo.plist`), written by
/// Xcode's `momc` from Core Data's own entity version hashes.
///
/// This is the only place chainplan gets Apple's exact hashes on Linux: comparing them with
/// a store's `NSStoreModelVersionHashes` reproduces Core Data's (and CoreStore's)
/// exact-equality rule for "which model made this store".
package struct CompiledModelInfo: Sendable, Hashable {
    /// `NSManagedObjectModel_CurrentVersionName`.
    package var currentVersionName: String?
    /// `NSManagedObjectModel_VersionHashes`: version name → entity name → hash.
    package var versionHashes: [String: [String: Data]]
    /// `NSManagedObjectModel_VersionChecksums`: version name → base64 checksum (newer Xcodes).
    package var versionChecksums: [String: String]
    /// The display path of the plist that was read.
    package var path: String

    package init(currentVersionName: String? = nil, versionHashes: [String: [String: Data]] = [:],
                versionChecksums: [String: String] = [:], path: String = "") {
        self.currentVersionName = currentVersionName
        self.versionHashes = versionHashes
        self.versionChecksums = versionChecksums
        self.path = path
    }

    /// Version names with hashes, sorted.
    package var versionNames: [String] { versionHashes.keys.sorted() }

    /// The largest `VersionInfo.plist` accepted.
    package static let maxBytes = 16 << 20

    /// Reads `VersionInfo.plist` from a `.momd` directory, or from the plist file itself.
    ///
    /// - Throws: `StoreError` with CP111 when the path is missing, not a momd, too large,
    ///   not a property list (XML declaring entities is refused), or lacks
    ///   `NSManagedObjectModel_VersionHashes`.
    package static func read(momdAt path: String, displayPath: String? = nil) throws(StoreError) -> CompiledModelInfo {
        let shown = displayPath ?? path
        var plistPath = path
        if case .success(.directory) = FileAccess.kind(at: path) {
            plistPath = (path as NSString).appendingPathComponent("VersionInfo.plist")
        }
        let plistShown = plistPath == path ? shown : (shown as NSString).appendingPathComponent("VersionInfo.plist")
        switch FileAccess.readRegularFile(at: URL(fileURLWithPath: plistPath), maxBytes: maxBytes) {
        case .failure(.missing):
            throw problem(plistShown, "does not exist")
        case .failure(.tooLarge(_, let bytes, let limit)):
            throw problem(plistShown, "is \(bytes) bytes, over the limit of \(limit) bytes")
        case .failure(.notRegularFile(_, let kind)):
            throw problem(plistShown, "is \(kind), not a property list")
        case .failure(let other):
            throw problem(plistShown, "cannot be read: \(other)")
        case .success(let data):
            return try decode(data, displayPath: plistShown)
        }
    }

    /// Decodes `VersionInfo.plist` content.
    package static func decode(_ data: Data, displayPath: String) throws(StoreError) -> CompiledModelInfo {
        let object: Any
        switch PropertyListReader.read(data) {
        case .success(let read): object = read
        case .failure(let refusal): throw problem(displayPath, refusal.message)
        }
        guard let dictionary = object as? [String: Any] else { throw problem(displayPath, "is not a property list dictionary") }
        guard let versions = dictionary["NSManagedObjectModel_VersionHashes"] as? [String: Any] else {
            throw problem(displayPath, "has no NSManagedObjectModel_VersionHashes dictionary")
        }
        var info = CompiledModelInfo(path: displayPath)
        for (version, value) in versions {
            guard let entities = value as? [String: Any] else {
                throw problem(displayPath, "has hashes for version '\(version)' that are not a dictionary")
            }
            var hashes: [String: Data] = [:]
            for (entity, hash) in entities {
                guard let hash = hash as? Data else {
                    throw problem(displayPath, "has a hash for entity '\(entity)' of version '\(version)' that is not data")
                }
                hashes[entity] = hash
            }
            info.versionHashes[version] = hashes
        }
        info.currentVersionName = dictionary["NSManagedObjectModel_CurrentVersionName"] as? String
        if let checksums = dictionary["NSManagedObjectModel_VersionChecksums"] as? [String: Any] {
            for (version, value) in checksums {
                if let text = value as? String { info.versionChecksums[version] = text }
            }
        }
        return info
    }

    /// The versions whose entity hashes equal `hashes` exactly (sorted by name).
    package func versions(matchingHashes hashes: [String: Data]) -> [String] {
        guard !hashes.isEmpty else { return [] }
        return versionHashes.filter { $0.value == hashes }.map(\.key).sorted()
    }

    /// The versions whose checksum equals `checksum` (sorted by name).
    package func versions(matchingChecksum checksum: String) -> [String] {
        versionChecksums.filter { $0.value == checksum }.map(\.key).sorted()
    }

    private static func problem(_ shown: String, _ reason: String) -> StoreError {
        StoreError(Diagnostic(.unreadableModelBundle, "compiled model '\(shown)' \(reason)", at: SourceLocation(file: shown)))
    }
}
