import ChainPlanHashing
import ChainPlanReaders
import Foundation

/// A model version as Core Data identifies it: its `versionChecksum` (base64 of SHA-256 over the
/// sorted entity hashes, 44 characters) and its entity version hashes (base64). The stage planner
/// takes these as input and never computes them: they come from a compiled model's
/// `VersionInfo.plist` (`--momd`) or from a hash engine plugged in by the caller.
public struct VersionIdentity: Sendable, Hashable, Codable {
    public var checksum: String
    /// Entity name → base64 entity version hash.
    public var entityHashes: [String: String]

    public init(checksum: String, entityHashes: [String: String] = [:]) {
        self.checksum = checksum
        self.entityHashes = entityHashes
    }
}

/// Every version's identity, and where it came from (shown in plans).
public struct VersionIdentities: Sendable, Hashable {
    public var byVersion: [String: VersionIdentity]
    /// Where the checksums were read, e.g. `App.momd/VersionInfo.plist`.
    public var source: String

    public init(byVersion: [String: VersionIdentity], source: String) {
        self.byVersion = byVersion
        self.source = source
    }

    /// The identities Core Data's version-hash algorithm gives the bundle's model files
    /// (reference §1). A version that cannot be hashed, or whose hashes rest on an input the
    /// reference leaves open, gets none: plans never show a checksum that is not certain.
    public init(computedFrom bundle: ModelBundle) {
        self.init(computedFrom: bundle.versionHashes(), bundlePath: bundle.path)
    }

    /// The identities of already computed `hashes` (one bundle's, at `bundlePath`), by the same rule.
    public init(computedFrom hashes: [VersionHashes], bundlePath: String) {
        var byVersion: [String: VersionIdentity] = [:]
        for version in hashes {
            guard let hashes = version.hashes, hashes.isVerified else { continue }
            byVersion[version.version] = VersionIdentity(checksum: hashes.checksum,
                                                         entityHashes: hashes.entities.mapValues { $0.base64EncodedString() })
        }
        self.init(byVersion: byVersion, source: "\(bundlePath) (computed)")
    }

    /// The versions whose checksum is `checksum`, in `order`.
    public func versions(withChecksum checksum: String, in order: [String]) -> [String] {
        order.filter { byVersion[$0]?.checksum == checksum }
    }
}
