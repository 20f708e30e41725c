import Crypto
import Foundation

/// A SHA-256 result held inline (four words in memory order, no heap storage), so hashing a
/// model allocates no `Data` or array per property: the engine's inner loop works on these and
/// converts to `Data` only for what `ModelHashes` keeps.
struct Digest32: Hashable, Sendable {
    var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// SHA-256 of `bytes`.
    init(sha256 bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { buffer in
            var hasher = SHA256()
            hasher.update(bufferPointer: buffer)
            return hasher.finalize().withUnsafeBytes { raw in
                Digest32(w0: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                         w1: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                         w2: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                         w3: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }
    }

    init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
        self.w3 = w3
    }

    /// The 32 raw bytes.
    var data: Data { withUnsafeBytes(of: self) { Data($0) } }
}

extension Array where Element == UInt8 {
    /// Appends the digest's 32 raw bytes.
    mutating func append(_ digest: Digest32) {
        Swift.withUnsafeBytes(of: digest) { append(contentsOf: $0) }
    }
}

/// Property hashes already computed while hashing the versions of one bundle, keyed by their
/// exact hash inputs (length-prefixed, so two different inputs never share a key): the
/// versions of a history repeat most properties, and a lookup costs less than two SHA-256
/// runs. Shared by the versions hashed in parallel; bounded, so a hostile bundle only loses
/// the shortcut.
final class DigestMemo: @unchecked Sendable {
    /// At most this many entries; later inputs are hashed without being remembered.
    static let capacity = 1 << 17

    struct Key: Hashable {
        var bytes: [UInt8]
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    private let lock = NSLock()
    private var table: [Key: Digest32] = [:]

    /// The digest remembered for the input `key`, else `compute()`'s, remembered.
    func digest(key: [UInt8], _ compute: () -> Digest32) -> Digest32 {
        lock.lock()
        let known = table[Key(bytes: key)]
        lock.unlock()
        if let known { return known }
        let digest = compute()
        lock.lock()
        if table.count < Self.capacity { table[Key(bytes: key)] = digest }
        lock.unlock()
        return digest
    }

    /// Appends `string` as a 4-byte length and its UTF-8 bytes.
    static func append(_ string: String?, to key: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: string?.utf8.count ?? 0), to: &key)
        if let string { key.append(contentsOf: string.utf8) }
    }

    static func append(_ value: UInt32, to key: inout [UInt8]) {
        key.append(UInt8(value & 0xFF))
        key.append(UInt8((value >> 8) & 0xFF))
        key.append(UInt8((value >> 16) & 0xFF))
        key.append(UInt8(value >> 24))
    }

    /// Every input of `VersionHasher.plainAttributeDigest(attribute, type:)`.
    static func key(_ attribute: Attribute, type: Int32, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        key.append(1)
        append(attribute.name, to: &key)
        key.append(attribute.isOptional ? 1 : 0)
        key.append(attribute.isTransient ? 1 : 0)
        append(attribute.versionHashModifier, to: &key)
        append(UInt32(bitPattern: type), to: &key)
        key.append(attribute.allowsExternalBinaryDataStorage ? 1 : 0)
        key.append(attribute.isPreservedAfterDeletion ? 1 : 0)
    }

    /// Every input of `VersionHasher.relationshipDigest(relationship, selfInverse:)`.
    static func key(_ relationship: Relationship, selfInverse: Bool, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        key.append(2)
        append(relationship.name, to: &key)
        key.append(relationship.isOptional ? 1 : 0)
        key.append(relationship.isTransient ? 1 : 0)
        append(relationship.versionHashModifier, to: &key)
        append(relationship.destinationEntity, to: &key)
        append(selfInverse ? nil : relationship.inverseName, to: &key)
        append(UInt32(truncatingIfNeeded: VersionHasher.effectiveMaxCount(relationship)), to: &key)
        append(UInt32(truncatingIfNeeded: relationship.minCount), to: &key)
        key.append(relationship.isOrdered ? 1 : 0)
    }
}
