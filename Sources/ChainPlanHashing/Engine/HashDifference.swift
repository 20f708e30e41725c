import ChainPlanReaders
import Foundation

/// Why an entity's version hash differs between two models: the hash inputs (§1.10) that
/// changed, named by property and field, e.g. `'Note.body' (optional: NO → YES)`.
package struct EntityHashChange: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var entity: String
    /// Each changed input, in a stable order.
    package var reasons: [String]

    package init(entity: String, reasons: [String]) {
        self.entity = entity
        self.reasons = reasons
    }

    package var description: String { "'\(entity)': " + reasons.joined(separator: "; ") }

    package static func < (lhs: EntityHashChange, rhs: EntityHashChange) -> Bool {
        lhs.entity.utf16.lexicographicallyPrecedes(rhs.entity.utf16)
    }
}

package enum HashDifference {
    /// The entities whose hashes differ between `old` and `new` (added and removed ones
    /// included), each with the inputs that moved it. Only hashed inputs are named.
    package static func changes(from old: ObjectModel, _ oldHashes: [String: Data],
                               to new: ObjectModel, _ newHashes: [String: Data]) -> [EntityHashChange] {
        changes(from: HashInputTable.inputs(of: old), oldHashes, to: HashInputTable.inputs(of: new), newHashes, showsValues: true)
    }

    /// The same, from each side's input table (`HashInputTable`). `showsValues`: the values
    /// are real (`optional: NO → YES`); else they are a lock's digests and only fields are named.
    package static func changes(from before: [String: EntityHashInputs], _ oldHashes: [String: Data],
                               to after: [String: EntityHashInputs], _ newHashes: [String: Data],
                               showsValues: Bool) -> [EntityHashChange] {
        var result: [EntityHashChange] = []
        for name in VersionHasher.sortedNames(Set(oldHashes.keys).union(newHashes.keys)) where oldHashes[name] != newHashes[name] {
            guard let a = before[name], oldHashes[name] != nil else {
                result.append(EntityHashChange(entity: name, reasons: ["added"]))
                continue
            }
            guard let b = after[name], newHashes[name] != nil else {
                result.append(EntityHashChange(entity: name, reasons: ["removed"]))
                continue
            }
            var reasons = entityReasons(a, b, oldHashes: oldHashes, newHashes: newHashes, showsValues: showsValues)
            if reasons.isEmpty { reasons = ["an input chainplan cannot name (composite element or ordering)"] }
            result.append(EntityHashChange(entity: name, reasons: reasons))
        }
        return result
    }

    /// The fields whose values differ, as `name: old → new` (or the name alone).
    static func fields(_ names: [String], _ a: [String], _ b: [String], showsValues: Bool) -> [String] {
        zip(names, zip(a, b)).compactMap { name, pair in
            pair.0 == pair.1 ? nil : showsValues ? "\(name): \(pair.0) → \(pair.1)" : name
        }
    }

    static func entityReasons(_ a: EntityHashInputs, _ b: EntityHashInputs,
                              oldHashes: [String: Data], newHashes: [String: Data], showsValues: Bool) -> [String] {
        var reasons = fields(HashInputTable.entity.map(\.name), a.values, b.values, showsValues: showsValues)
        // The same parent whose own inputs moved (its hash is fed): said where the parent field would be.
        let parentField = HashInputTable.entity.firstIndex { $0.name == "parent" } ?? 0
        if a.values.indices.contains(parentField), b.values.indices.contains(parentField), a.values[parentField] == b.values[parentField],
           let parent = b.parent, oldHashes[parent] != newHashes[parent] {
            reasons.insert("its parent '\(parent)' changed", at: reasons.first?.hasPrefix("abstract") == true ? 1 : 0)
        }
        for property in VersionHasher.sortedNames(Set(a.properties.keys).union(b.properties.keys)) {
            let label = "'\(a.name).\(property)'"
            let changed: [String]
            switch (a.properties[property], b.properties[property]) {
            case let (x?, y?) where x.kind != y.kind:
                changed = ["changed between attribute and relationship"]
            case let (x?, y?):
                changed = fields(x.fieldNames, x.values, y.values, showsValues: showsValues)
            case (nil, _?):
                changed = [a.transient.contains(property) ? "no longer transient" : "added"]
            case (_?, nil):
                changed = [b.transient.contains(property) ? "now transient" : "removed"]
            case (nil, nil):
                changed = []
            }
            if !changed.isEmpty { reasons.append("\(label) (\(changed.joined(separator: ", ")))") }
        }
        return reasons
    }
}
