import Foundation

/// Why a hash is not verified against Core Data-written data: the input follows a rule read only
/// in Core Data's code, or one the reference marks [open] (§1.11). Output says "unverified".
public struct HashCaveat: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The entity that declares the input.
    public var entity: String
    /// The property, when the caveat is about one.
    public var property: String?
    public var reason: String

    public init(entity: String, property: String? = nil, reason: String) {
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    public var description: String {
        "\(entity)\(property.map { ".\($0)" } ?? ""): \(reason)"
    }

    public static func < (lhs: HashCaveat, rhs: HashCaveat) -> Bool {
        (lhs.entity, lhs.property ?? "", lhs.reason) < (rhs.entity, rhs.property ?? "", rhs.reason)
    }
}

/// One model version's hashes, as Core Data computes them (§1).
public struct ModelHashes: Sendable, Hashable {
    /// Entity name → the 32 bytes of its `versionHash`.
    public var entities: [String: Data]
    /// Entity name → property name → the property's 32-byte hash, for every attribute and
    /// relationship the entity has (inherited and transient ones included; fetched properties
    /// have no hash of their own here).
    public var properties: [String: [String: Data]]
    /// Inputs hashed by a code-only or [open] rule, sorted.
    public var caveats: [HashCaveat]
    /// Entities whose hash depends on a caveat (their own, a property's, or an ancestor's).
    public var unverifiedEntities: Set<String>

    public init(entities: [String: Data], properties: [String: [String: Data]] = [:],
                caveats: [HashCaveat] = [], unverifiedEntities: Set<String> = []) {
        self.entities = entities
        self.properties = properties
        self.caveats = caveats
        self.unverifiedEntities = unverifiedEntities
    }

    /// The model's `versionHash` (32 bytes).
    public var versionHash: Data { VersionHasher.versionHash(entities) }
    /// `NSStoreModelVersionChecksumKey` / `VersionInfo.plist`'s checksum: base64, 44 characters.
    public var checksum: String { VersionHasher.checksum(entities) }
    /// `NSStoreModelVersionHashesDigest`: base64 SHA-512, 88 characters.
    public var digest: String { VersionHasher.digest(entities) }
    /// True when every hash rests on verified rules only.
    public var isVerified: Bool { unverifiedEntities.isEmpty }
    /// Entity names in Core Data's order.
    public var entityNames: [String] { VersionHasher.sortedNames(entities.keys) }

    /// Core Data's compatibility test (§1.7): same entity count, every hash equal by name.
    public func isCompatible(with other: [String: Data]) -> Bool { entities == other }
}

/// Why a version cannot be hashed (never a wrong hash instead).
public struct HashFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
