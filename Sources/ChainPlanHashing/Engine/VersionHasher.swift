import ChainPlanReaders
import Crypto
import Foundation

/// Core Data's version hashes, computed from a parsed model exactly as Core Data computes them
/// (`core-data-internals.md` §1): property base, attribute, relationship and entity hashes, the
/// model's `versionHash`, its `versionChecksum` and the hashes digest a store records.
///
/// Every hash is SHA-256 (the digest SHA-512) over a concatenation of UTF-8 strings (no length,
/// no terminator), little-endian fixed-width integers and the 32 raw bytes of other hashes.
/// Inputs the reference marks [open] or code-only are still hashed by the code's rule, and the
/// result carries a `HashCaveat` so output can say "unverified"; nothing is guessed silently.
package enum VersionHasher {
    // MARK: - Byte-level building blocks

    /// SHA-256 of `bytes`, as 32 raw bytes.
    package static func sha256(_ bytes: [UInt8]) -> Data {
        bytes.withUnsafeBytes { buffer in
            var hasher = SHA256()
            hasher.update(bufferPointer: buffer)
            return hasher.finalize().withUnsafeBytes { Data($0) }
        }
    }

    /// The property base hash (§1.2): `name ‖ u16le(flags) ‖ versionHashModifier`, with flags
    /// optional 1, transient 2, read-only 4.
    package static func propertyBase(name: String, isOptional: Bool, isTransient: Bool,
                                    isReadOnly: Bool = false, modifier: String?) -> Data {
        var scratch: [UInt8] = []
        return propertyBaseDigest(name: name, isOptional: isOptional, isTransient: isTransient, isReadOnly: isReadOnly,
                                  modifier: modifier, scratch: &scratch).data
    }

    /// The property base hash, built in `scratch` (overwritten; reused so no input allocates).
    static func propertyBaseDigest(name: String, isOptional: Bool, isTransient: Bool,
                                   isReadOnly: Bool = false, modifier: String?, scratch: inout [UInt8]) -> Digest32 {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: name.utf8)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
        scratch.append(UInt8(flags & 0xFF))
        scratch.append(UInt8(flags >> 8))
        if let modifier { scratch.append(contentsOf: modifier.utf8) }
        return Digest32(sha256: scratch)
    }

    /// Leaves `H(base)` of `property` in `scratch`, the start of its attribute or relationship hash.
    static func startPropertyHash(_ property: some HashedProperty, in scratch: inout [UInt8]) {
        let base = propertyBaseDigest(name: property.name, isOptional: property.isOptional,
                                      isTransient: property.isTransient, modifier: property.versionHashModifier, scratch: &scratch)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(base)
    }

    /// Core Data's `NSAttributeType` code for `type`, nil for a spelling chainplan does not know.
    package static func typeCode(_ type: AttributeType) -> Int32? {
        switch type {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .composite: 2100
        case .other: nil
        }
    }

    /// An ordinary attribute's hash (§1.3): `H(base) ‖ i32le(type) ‖ 01 if external storage ‖
    /// 01 if preserved after deletion`.
    static func plainAttribute(_ attribute: Attribute, type: Int32) -> Data {
        var scratch: [UInt8] = []
        return plainAttributeDigest(attribute, type: type, scratch: &scratch).data
    }

    /// `plainAttribute`, built in `scratch`.
    static func plainAttributeDigest(_ attribute: Attribute, type: Int32, scratch: inout [UInt8]) -> Digest32 {
        startPropertyHash(attribute, in: &scratch)
        append(type, to: &scratch)
        if attribute.allowsExternalBinaryDataStorage { scratch.append(1) }
        if attribute.isPreservedAfterDeletion { scratch.append(1) }
        return Digest32(sha256: scratch)
    }

    /// A derived attribute's hash [code]: `derivationExpression.predicateFormat ‖
    /// filteringPredicate.predicateFormat`; the base hash is not fed. The setter rewrites a key
    /// path ending in `.@sum`/`.@total` to `sum:(path)` and `.@count` to `count:(path)`; any other
    /// expression is fed as written, which is NSExpression's format only for plain key paths.
    static func derivedAttribute(expression: String) -> Data {
        sha256(Array(derivationFormat(expression).utf8))
    }

    /// The `predicateFormat` Core Data's setter gives a derivation written as `expression`.
    static func derivationFormat(_ expression: String) -> String {
        for (suffix, function) in [(".@sum", "sum"), (".@total", "sum"), (".@count", "count")]
        where expression.hasSuffix(suffix) && expression.count > suffix.count {
            return "\(function):(\(expression.dropLast(suffix.count)))"
        }
        return expression
    }

    /// A relationship's hash (§1.4): `H(base) ‖ destination ‖ inverse ‖ i32le(maxCount) ‖
    /// i32le(minCount) ‖ 01 00 if ordered`. `selfInverse` feeds no inverse name [code].
    static func relationship(_ relationship: Relationship, selfInverse: Bool) -> Data {
        var scratch: [UInt8] = []
        return relationshipDigest(relationship, selfInverse: selfInverse, scratch: &scratch).data
    }

    /// `relationship`, built in `scratch`.
    static func relationshipDigest(_ relationship: Relationship, selfInverse: Bool, scratch: inout [UInt8]) -> Digest32 {
        startPropertyHash(relationship, in: &scratch)
        if let destination = relationship.destinationEntity { scratch.append(contentsOf: destination.utf8) }
        if !selfInverse, let inverse = relationship.inverseName { scratch.append(contentsOf: inverse.utf8) }
        append(Int32(truncatingIfNeeded: effectiveMaxCount(relationship)), to: &scratch)
        append(Int32(truncatingIfNeeded: relationship.minCount), to: &scratch)
        if relationship.isOrdered {
            scratch.append(1)
            scratch.append(0)
        }
        return Digest32(sha256: scratch)
    }

    /// `maxCount` as hashed: as written, else 0 for to-many and 1 for to-one (§1.4).
    static func effectiveMaxCount(_ relationship: Relationship) -> Int {
        if relationship.hasWrittenMaxCount { return relationship.maxCount }
        return relationship.isToMany ? 0 : 1
    }

    /// `versionHash` (§1.6): SHA-256 over the entity hashes, entities sorted by name.
    package static func versionHash(_ entities: [String: Data]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entities.count * 32)
        for name in sortedNames(entities.keys) { if let hash = entities[name] { bytes.append(contentsOf: hash) } }
        return sha256(bytes)
    }

    /// `versionChecksum` (§1.6): base64 of `versionHash`, 44 characters.
    package static func checksum(_ entities: [String: Data]) -> String {
        versionHash(entities).base64EncodedString()
    }

    /// `checksum(entities)` and `digest(entities)`, the names sorted once.
    package static func checksumAndDigest(_ entities: [String: Data]) -> (checksum: String, digest: String) {
        let names = sortedNames(entities.keys)
        var hashes: [UInt8] = []
        hashes.reserveCapacity(entities.count * 32)
        for name in names { if let hash = entities[name] { hashes.append(contentsOf: hash) } }
        return (sha256(hashes).base64EncodedString(), digest(entities, sortedNames: names))
    }

    /// The hashes digest (`NSStoreModelVersionHashesDigest`, §1.6): base64 of SHA-512 over each
    /// entity name (sorted) followed by its hash, 88 characters.
    package static func digest(_ entities: [String: Data]) -> String {
        digest(entities, sortedNames: sortedNames(entities.keys))
    }

    static func digest(_ entities: [String: Data], sortedNames names: [String]) -> String {
        var bytes: [UInt8] = []
        for name in names {
            bytes.append(contentsOf: name.utf8)
            if let hash = entities[name] { bytes.append(contentsOf: hash) }
        }
        return bytes.withUnsafeBytes { buffer in
            var hasher = SHA512()
            hasher.update(bufferPointer: buffer)
            return hasher.finalize().withUnsafeBytes { Data($0) }
        }.base64EncodedString()
    }

    // MARK: - Order

    /// Names in `compare:` order without options, taken as UTF-16 code-unit order (§1.1).
    package static func sortedNames<S: Sequence>(_ names: S) -> [String] where S.Element == String {
        let array = Array(names)
        // ASCII (every corpus name) compares the same by String's `<`, which is a byte compare there;
        // any other name makes every pair compare by UTF-16 code units (the same order on ASCII pairs).
        if array.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) { return array.sorted() }
        return array.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
    }

    /// True when the order of `names` is one the corpus verifies: ASCII names whose code-unit
    /// order agrees with their case-insensitive order (so neither case nor `_` decides it).
    static func isVerifiedOrder(_ names: [String]) -> Bool { isVerifiedOrder(sorted: sortedNames(names)) }

    /// `isVerifiedOrder` for names already in code-unit order: every neighbour pair must be in
    /// case-insensitive order too (then both sorts give the same list).
    static func isVerifiedOrder(sorted names: [String]) -> Bool {
        var previous: String?
        for name in names {
            for byte in name.utf8 where byte >= 0x80 { return false }
            if let previous, foldedPrecedes(name, previous) { return false }
            previous = name
        }
        return true
    }

    /// `a` before `b` with ASCII upper case folded to lower case, compared byte by byte.
    static func foldedPrecedes(_ a: String, _ b: String) -> Bool {
        func fold(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil), (_?, nil): return false
            case (nil, _?): return true
            case let (x?, y?) where fold(x) != fold(y): return fold(x) < fold(y)
            default: continue
            }
        }
    }

    private static func append(_ value: Int32, to bytes: inout [UInt8]) {
        let raw = UInt32(bitPattern: value)
        bytes.append(UInt8(raw & 0xFF))
        bytes.append(UInt8((raw >> 8) & 0xFF))
        bytes.append(UInt8((raw >> 16) & 0xFF))
        bytes.append(UInt8(raw >> 24))
    }
}
