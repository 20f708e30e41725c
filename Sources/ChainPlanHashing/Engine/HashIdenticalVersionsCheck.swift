import Foundation

/// CP123: two versions of one bundle whose entity hashes are all equal are one version to Core
/// Data (§2). One finding per version and the first version hashing like it; an error when the two differ in something migration reads
/// but the hash ignores (renaming identifiers, default values), because which of them becomes a
/// store's source model is then undefined.
///
/// Example (its test runs it): `V1` and `V2` both `Note { title: String }` → one CP123 warning;
/// `V2` gives `title` the renaming identifier `heading` → one CP123 error.
public enum HashIdenticalVersionsCheck {
    /// Findings for `versions` (history order); `hashes` by version name.
    public static func findings(_ versions: [ModelVersion], hashes: [String: VersionHashes]) -> [Diagnostic] {
        var groups: [[String: Data]: [ModelVersion]] = [:]
        var order: [[String: Data]] = []
        for version in versions {
            // A model without entities has nothing to tell apart (and no store): not reported.
            guard let entities = hashes[version.name]?.hashes?.entities, !entities.isEmpty else { continue }
            if groups[entities] == nil { order.append(entities) }
            groups[entities, default: []].append(version)
        }
        var findings: [Diagnostic] = []
        for key in order {
            let group = groups[key] ?? []
            // Each later version is paired with the group's first (a group of two is one pair; a
            // group of n gives n - 1 findings, not n(n - 1)/2: 10,000 identical versions stay bounded).
            guard let first = group.first, group.count > 1 else { continue }
            for second in group.dropFirst() { findings.append(finding(first, second)) }
        }
        return findings
    }

    static func finding(_ a: ModelVersion, _ b: ModelVersion) -> Diagnostic {
        let differences = (a.model.flatMap { old in b.model.map { unhashedDifferences(old, $0) } }) ?? []
        let location = SourceLocation(file: b.path)
        if differences.isEmpty {
            return Diagnostic(.hashIdenticalVersions, "'\(a.name)' and '\(b.name)' have identical entity version hashes: Core Data treats them as one version (no migration runs between them)",
                              at: location, versions: [a.name, b.name])
        }
        let shown = differences.prefix(3).joined(separator: "; ") + (differences.count > 3 ? "; and \(differences.count - 3) more" : "")
        return Diagnostic(.hashIdenticalVersions, severity: .error,
                          "'\(a.name)' and '\(b.name)' have identical entity version hashes but differ in what migration reads and the hash ignores: \(shown); which of them Core Data takes as a store's source model is undefined",
                          at: location, versions: [a.name, b.name])
    }

    /// Renaming identifiers and default values that differ between two hash-identical models.
    static func unhashedDifferences(_ old: ObjectModel, _ new: ObjectModel) -> [String] {
        let before = old.resolved()
        var result: [String] = []
        func show(_ value: String?) -> String { value.map { "'\($0)'" } ?? "none" }
        for entity in new.resolved().entities {
            guard let previous = before.entity(named: entity.name) else { continue }
            if previous.entity.renamingIdentifier != entity.entity.renamingIdentifier {
                result.append("'\(entity.name)' renaming identifier \(show(previous.entity.renamingIdentifier)) → \(show(entity.entity.renamingIdentifier))")
            }
            let attributes = Dictionary(previous.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for attribute in entity.attributes where !entity.isInherited(attribute.name) {
                guard let was = attributes[attribute.name] else { continue }
                let label = "'\(entity.name).\(attribute.name)'"
                if was.renamingIdentifier != attribute.renamingIdentifier {
                    result.append("\(label) renaming identifier \(show(was.renamingIdentifier)) → \(show(attribute.renamingIdentifier))")
                }
                if was.defaultValueString != attribute.defaultValueString || was.defaultDateTimeInterval != attribute.defaultDateTimeInterval {
                    result.append("\(label) default \(show(was.defaultValueString ?? was.defaultDateTimeInterval)) → \(show(attribute.defaultValueString ?? attribute.defaultDateTimeInterval))")
                }
            }
            let relationships = Dictionary(previous.relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for relationship in entity.relationships where !entity.isInherited(relationship.name) {
                guard let was = relationships[relationship.name], was.renamingIdentifier != relationship.renamingIdentifier else { continue }
                result.append("'\(entity.name).\(relationship.name)' renaming identifier \(show(was.renamingIdentifier)) → \(show(relationship.renamingIdentifier))")
            }
        }
        return result
    }
}
