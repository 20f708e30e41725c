import Foundation

/// Why an entity's version hash differs between two models: the hash inputs (§1.10) that
/// changed, named by property and field, e.g. `'Note.body' (optional: NO → YES)`.
public struct EntityHashChange: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var entity: String
    /// Each changed input, in a stable order.
    public var reasons: [String]

    public init(entity: String, reasons: [String]) {
        self.entity = entity
        self.reasons = reasons
    }

    public var description: String { "'\(entity)': " + reasons.joined(separator: "; ") }

    public static func < (lhs: EntityHashChange, rhs: EntityHashChange) -> Bool {
        lhs.entity.utf16.lexicographicallyPrecedes(rhs.entity.utf16)
    }
}

public enum HashDifference {
    /// The entities whose hashes differ between `old` and `new` (added and removed ones
    /// included), each with the inputs that moved it. Only hashed inputs are named.
    public static func changes(from old: ObjectModel, _ oldHashes: [String: Data],
                               to new: ObjectModel, _ newHashes: [String: Data]) -> [EntityHashChange] {
        let before = old.resolved()
        let after = new.resolved()
        var result: [EntityHashChange] = []
        for name in VersionHasher.sortedNames(Set(oldHashes.keys).union(newHashes.keys)) where oldHashes[name] != newHashes[name] {
            guard let a = before.entity(named: name), oldHashes[name] != nil else {
                result.append(EntityHashChange(entity: name, reasons: ["added"]))
                continue
            }
            guard let b = after.entity(named: name), newHashes[name] != nil else {
                result.append(EntityHashChange(entity: name, reasons: ["removed"]))
                continue
            }
            var reasons = entityReasons(a, b, oldHashes: oldHashes, newHashes: newHashes)
            if reasons.isEmpty { reasons = ["an input chainplan cannot name (composite element or ordering)"] }
            result.append(EntityHashChange(entity: name, reasons: reasons))
        }
        return result
    }

    static func field<T: Equatable>(_ name: String, _ a: T, _ b: T, _ show: (T) -> String) -> String? {
        a == b ? nil : "\(name): \(show(a)) → \(show(b))"
    }

    static func yes(_ flag: Bool) -> String { flag ? "YES" : "NO" }
    static func text(_ value: String?) -> String { value.map { "'\($0)'" } ?? "none" }

    static func entityReasons(_ a: ResolvedEntity, _ b: ResolvedEntity,
                              oldHashes: [String: Data], newHashes: [String: Data]) -> [String] {
        let name = a.name
        var reasons: [String] = []
        if a.entity.isAbstract != b.entity.isAbstract { reasons.append("abstract: \(yes(a.entity.isAbstract)) → \(yes(b.entity.isAbstract))") }
        if a.parent != b.parent {
            reasons.append("parent: \(text(a.parent)) → \(text(b.parent))")
        } else if let parent = a.parent, oldHashes[parent] != newHashes[parent] {
            reasons.append("its parent '\(parent)' changed")
        }
        let modifier = field("versionHashModifier", a.entity.versionHashModifier ?? "", b.entity.versionHashModifier ?? "") { "'\($0)'" }
        if let modifier { reasons.append(modifier) }
        if a.entity.uniquenessConstraints != b.entity.uniquenessConstraints {
            let show = { (c: [[String]]) in "[" + c.map { $0.joined(separator: ",") }.joined(separator: "; ") + "]" }
            reasons.append("uniqueness constraints: \(show(a.entity.uniquenessConstraints)) → \(show(b.entity.uniquenessConstraints))")
        }
        let oldAttributes = Dictionary(a.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newAttributes = Dictionary(b.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let oldRelationships = Dictionary(a.relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newRelationships = Dictionary(b.relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let hashed = { (attributes: [String: Attribute], relationships: [String: Relationship]) -> Set<String> in
            Set(attributes.filter { !$0.value.isTransient }.keys).union(relationships.filter { !$0.value.isTransient }.keys)
        }
        let before = hashed(oldAttributes, oldRelationships)
        let after = hashed(newAttributes, newRelationships)
        for property in VersionHasher.sortedNames(before.union(after)) {
            let label = "'\(name).\(property)'"
            let fields: [String]
            // A property turning transient (or back) leaves the hash; say so before comparing fields.
            if before.contains(property), after.contains(property), let x = oldAttributes[property], let y = newAttributes[property] {
                fields = attributeFields(x, y)
            } else if before.contains(property), after.contains(property), let x = oldRelationships[property], let y = newRelationships[property] {
                fields = relationshipFields(x, y)
            } else if before.contains(property), after.contains(property) {
                fields = ["changed between attribute and relationship"]
            } else if !before.contains(property) {
                fields = [oldAttributes[property] != nil || oldRelationships[property] != nil ? "no longer transient" : "added"]
            } else {
                fields = [newAttributes[property] != nil || newRelationships[property] != nil ? "now transient" : "removed"]
            }
            if !fields.isEmpty { reasons.append("\(label) (\(fields.joined(separator: ", ")))") }
        }
        return reasons
    }

    static func attributeFields(_ a: Attribute, _ b: Attribute) -> [String] {
        [
            field("optional", a.isOptional, b.isOptional, yes),
            field("type", a.type.xmlValue, b.type.xmlValue) { $0 },
            field("allowsExternalBinaryDataStorage", a.allowsExternalBinaryDataStorage, b.allowsExternalBinaryDataStorage, yes),
            field("preserveAfterDeletion", a.isPreservedAfterDeletion, b.isPreservedAfterDeletion, yes),
            field("versionHashModifier", a.versionHashModifier ?? "", b.versionHashModifier ?? "") { "'\($0)'" },
            field("derived", a.isDerived, b.isDerived, yes),
            field("derivationExpression", a.derivationExpression, b.derivationExpression, text),
            a.type == .composite ? field("composite", a.compositeName, b.compositeName, text) : nil,
        ].compactMap { $0 }
    }

    static func relationshipFields(_ a: Relationship, _ b: Relationship) -> [String] {
        [
            field("optional", a.isOptional, b.isOptional, yes),
            field("destination", a.destinationEntity, b.destinationEntity, text),
            field("inverse", a.inverseName, b.inverseName, text),
            field("maxCount", VersionHasher.effectiveMaxCount(a), VersionHasher.effectiveMaxCount(b)) { String($0) },
            field("minCount", a.minCount, b.minCount) { String($0) },
            field("ordered", a.isOrdered, b.isOrdered, yes),
            field("versionHashModifier", a.versionHashModifier ?? "", b.versionHashModifier ?? "") { "'\($0)'" },
        ].compactMap { $0 }
    }
}
