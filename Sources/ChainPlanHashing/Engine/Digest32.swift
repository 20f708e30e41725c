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

/// Hashes already computed while hashing the versions of one bundle, keyed by their exact hash
/// inputs (length-prefixed, so two different inputs never share a key): the versions of a
/// history repeat most entities and properties, and a lookup costs less than the SHA-256 runs
/// it spares. A memo is used by one thread at a time (no lock per lookup): the versions hashed
/// in parallel take one each from a `DigestMemoPool`. Bounded, so a hostile bundle only loses
/// the shortcut.
final class DigestMemo {
    /// At most this many entries (properties and entities together); later inputs are hashed
    /// without being remembered.
    static let capacity = 1 << 17

    struct Key: Hashable {
        var bytes: [UInt8]
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    /// A whole entity's hash (§1.5) and what hashing it noted.
    struct EntityResult {
        var digest: Digest32
        var unverified: Bool
        var caveats: [HashCaveat]
    }

    private var table: [Key: Digest32] = [:]
    private var entityTable: [Key: EntityResult] = [:]
    /// The last root entity of each name hashed with this memo, and its result: the same
    /// entity in a neighbouring version, compared field by field without building a key.
    private var lastRoots: [String: (entity: ResolvedEntity, result: EntityResult)] = [:]

    private var hasRoom: Bool { table.count + entityTable.count + lastRoots.count < Self.capacity }

    /// The result of the last root entity named like `entity` when its hash inputs equal
    /// `entity`'s (`sameRootInputs`).
    func lastRoot(like entity: ResolvedEntity) -> EntityResult? {
        guard let last = lastRoots[entity.entity.name], Self.sameRootInputs(last.entity, entity) else { return nil }
        return last.result
    }

    /// Remembers `entity` (one `key(root:into:)` accepts) as the last root of its name.
    func remember(root entity: ResolvedEntity, result: EntityResult) {
        if lastRoots[entity.entity.name] != nil || hasRoom { lastRoots[entity.entity.name] = (entity, result) }
    }

    /// The digest remembered for the input `key`, else `compute()`'s, remembered.
    func digest(key: [UInt8], _ compute: () -> Digest32) -> Digest32 {
        if let known = table[Key(bytes: key)] { return known }
        let digest = compute()
        if hasRoom { table[Key(bytes: key)] = digest }
        return digest
    }

    /// The entity result remembered for the entity input `key`.
    func entity(key: [UInt8]) -> EntityResult? { entityTable[Key(bytes: key)] }

    /// Remembers `result` for the entity input `key`.
    func remember(entity result: EntityResult, key: [UInt8]) {
        if hasRoom { entityTable[Key(bytes: key)] = result }
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

    /// Appends `tag` (1 attribute, 2 relationship) and the inputs of `property`'s base hash.
    static func appendBase(_ property: some HashedProperty, tag: UInt8, to key: inout [UInt8]) {
        key.append(tag)
        append(property.name, to: &key)
        key.append(property.isOptional ? 1 : 0)
        key.append(property.isTransient ? 1 : 0)
        append(property.versionHashModifier, to: &key)
    }

    /// Every input of `VersionHasher.plainAttributeDigest(attribute, type:)`.
    static func key(_ attribute: Attribute, type: Int32, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        append(attribute, type: type, to: &key)
    }

    /// Appends the inputs of `key(_:type:into:)`.
    static func append(_ attribute: Attribute, type: Int32, to key: inout [UInt8]) {
        appendBase(attribute, tag: 1, to: &key)
        append(UInt32(bitPattern: type), to: &key)
        key.append(attribute.allowsExternalBinaryDataStorage ? 1 : 0)
        key.append(attribute.isPreservedAfterDeletion ? 1 : 0)
    }

    /// Every input of `VersionHasher.relationshipDigest(relationship, selfInverse:)`.
    static func key(_ relationship: Relationship, selfInverse: Bool, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        append(relationship, selfInverse: selfInverse, to: &key)
    }

    /// Appends the inputs of `key(_:selfInverse:into:)`.
    static func append(_ relationship: Relationship, selfInverse: Bool, to key: inout [UInt8]) {
        appendBase(relationship, tag: 2, to: &key)
        append(relationship.destinationEntity, to: &key)
        append(selfInverse ? nil : relationship.inverseName, to: &key)
        append(UInt32(truncatingIfNeeded: VersionHasher.effectiveMaxCount(relationship)), to: &key)
        append(UInt32(truncatingIfNeeded: relationship.minCount), to: &key)
        key.append(relationship.isOrdered ? 1 : 0)
    }

    /// True when `new` has every hash input `key(root:into:)` reads from `remembered`, which that
    /// function accepted: then both keys are equal (and `new` is accepted too).
    static func sameRootInputs(_ remembered: ResolvedEntity, _ new: ResolvedEntity) -> Bool {
        let a = remembered.entity, b = new.entity
        guard new.ancestors.isEmpty, a.name == b.name, a.isAbstract == b.isAbstract,
              a.versionHashModifier == b.versionHashModifier, a.uniquenessConstraints == b.uniquenessConstraints,
              a.attributes.count == b.attributes.count, a.relationships.count == b.relationships.count,
              new.attributes.count == b.attributes.count, new.relationships.count == b.relationships.count else { return false }
        for index in a.attributes.indices where !sameInputs(a.attributes[index], b.attributes[index]) { return false }
        for index in a.relationships.indices where !sameInputs(a.relationships[index], b.relationships[index]) { return false }
        return true
    }

    /// The attribute's inputs `key(root:into:)` reads are equal: the base, the type, and the flags.
    static func sameInputs(_ a: Attribute, _ b: Attribute) -> Bool {
        sameBase(a, b) && a.type == b.type && a.isDerived == b.isDerived
            && a.allowsExternalBinaryDataStorage == b.allowsExternalBinaryDataStorage && a.isPreservedAfterDeletion == b.isPreservedAfterDeletion
    }

    /// The relationship's inputs `key(root:into:)` reads are equal: the base, the ends, and the counts.
    static func sameInputs(_ a: Relationship, _ b: Relationship) -> Bool {
        sameBase(a, b) && a.destinationEntity == b.destinationEntity && a.inverseName == b.inverseName
            && a.isToMany == b.isToMany && a.isOrdered == b.isOrdered && a.minCount == b.minCount && a.maxCount == b.maxCount
            && a.hasWrittenMinCount == b.hasWrittenMinCount && a.hasWrittenMaxCount == b.hasWrittenMaxCount
    }

    /// The inputs of the two properties' base hashes are equal.
    static func sameBase(_ a: some HashedProperty, _ b: some HashedProperty) -> Bool {
        a.name == b.name && a.isOptional == b.isOptional && a.isTransient == b.isTransient && a.versionHashModifier == b.versionHashModifier
    }

    static func append(_ value: Int, to key: inout [UInt8]) {
        let raw = UInt64(bitPattern: Int64(value))
        append(UInt32(truncatingIfNeeded: raw), to: &key)
        append(UInt32(truncatingIfNeeded: raw >> 32), to: &key)
    }

    /// Every input of a root entity's hash and of what hashing it notes (its caveats: see
    /// `ModelHasher.Declarations.hash` and `relationshipNotes`), in `key`; false, leaving `key`
    /// unspecified, for an entity whose result also depends on something else (a derived or
    /// composite attribute, an unknown type, an ancestor, inherited or folded properties).
    static func key(root entity: ResolvedEntity, into key: inout [UInt8]) -> Bool {
        let declared = entity.entity
        guard entity.ancestors.isEmpty, entity.attributes.count == declared.attributes.count,
              entity.relationships.count == declared.relationships.count else { return false }
        key.removeAll(keepingCapacity: true)
        key.append(3)
        append(declared.name, to: &key)
        key.append(declared.isAbstract ? 1 : 0)
        append(declared.versionHashModifier, to: &key)
        append(UInt32(truncatingIfNeeded: declared.uniquenessConstraints.count), to: &key)
        for constraint in declared.uniquenessConstraints {
            append(UInt32(truncatingIfNeeded: constraint.count), to: &key)
            for name in constraint { append(name, to: &key) }
        }
        append(UInt32(truncatingIfNeeded: declared.attributes.count), to: &key)
        for (attribute, resolved) in zip(declared.attributes, entity.attributes) {
            guard !attribute.isDerived, attribute.type != .composite, let code = VersionHasher.typeCode(attribute.type),
                  attribute.name == resolved.name, attribute.isTransient == resolved.isTransient else { return false }
            append(attribute, type: code, to: &key)
        }
        append(UInt32(truncatingIfNeeded: declared.relationships.count), to: &key)
        for (relationship, resolved) in zip(declared.relationships, entity.relationships) {
            guard relationship.name == resolved.name, relationship.isTransient == resolved.isTransient else { return false }
            let selfInverse = relationship.inverseName == relationship.name && relationship.destinationEntity == declared.name
            append(relationship, selfInverse: selfInverse, to: &key)
            key.append(selfInverse ? 1 : 0)
            key.append(relationship.isToMany ? 1 : 0)
            key.append(relationship.hasWrittenMinCount ? 1 : 0)
            key.append(relationship.hasWrittenMaxCount ? 1 : 0)
            append(relationship.minCount, to: &key)
            append(relationship.maxCount, to: &key)
        }
        return true
    }
}

/// The memos of one bundle's versions, handed out one per hashing thread: a version takes a
/// memo for its whole hashing and gives it back, so every memo is used by one thread at a time
/// and the pool holds at most as many memos as versions were hashed at once.
package final class DigestMemoPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [DigestMemo] = []

    package init() {}

    /// `body` run with a memo no other thread uses meanwhile.
    func withMemo<Result>(_ body: (DigestMemo) -> Result) -> Result {
        lock.lock()
        let memo = idle.popLast() ?? DigestMemo()
        lock.unlock()
        defer {
            lock.lock()
            idle.append(memo)
            lock.unlock()
        }
        return body(memo)
    }
}
