import ChainPlanCore
import ChainPlanReaders
import Foundation

extension DiagnosticCode {
    /// CP123 HashIdenticalVersions: two model versions have identical Core Data version hashes.
    package static let hashIdenticalVersions = DiagnosticCode(
        "CP123", name: "HashIdenticalVersions", severity: .warning,
        summary: "Two model versions have identical Core Data version hashes",
        help: "Core Data tells versions apart only by their entity version hashes, so two versions whose hashes are all equal are one version to it: no migration runs between them, and a store of either matches both. A warning when they differ in nothing a migration reads from its source model: a changed default applies to new objects only (existing rows keep their values), and an index or userInfo change may be read by the in-place migration (unverified). An error when they differ in something a migration reads from its source model and the hash ignores (a renaming identifier, which the mapping builder and both migration paths key by; a transformable attribute's value transformer when a step from them runs in memory with a mapping model, since that path decodes source values with it): which of the two Core Data picks as a store's source model is undefined. Change a hashed input (e.g. a versionHashModifier) of the newer one so a migration runs, or merge them.",
        examples: [
            .project("V1 and V2 are the same model", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.note]), expected: 1),
            .project("V2 gives 'title' a renaming identifier, which the hash ignores (an error)", files: RuleExampleFixtures.project([RuleExampleFixtures.note,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" elementID="heading"/></entity>"#]), expected: 1),
            .project("V2 gives 'title' a default value, which only new objects get (a warning)", files: RuleExampleFixtures.project([RuleExampleFixtures.note,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" defaultValueString="Untitled"/></entity>"#]), expected: 1),
            .project("V2 adds an attribute", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

/// CP123: two versions of one bundle whose entity hashes are all equal are one version to Core
/// Data (§2). One finding per version and the first version hashing like it.
///
/// Its severity follows what the user sees. Core Data picks either version as a store's source
/// model (the first full match of an unordered dictionary), so it is an error only when the two
/// differ in something a migration reads from its source model and the hash ignores: renaming
/// identifiers (the builder and both migration paths key by them) or, when a step from either runs
/// in memory (a mapping model), a transformable attribute's value transformer (that path decodes
/// source values with it; the in-place path copies the bytes). Otherwise a warning: no migration
/// runs between them, a new default applies to new objects only, and an index or userInfo change
/// may be read by the in-place path (unverified).
///
/// Example (its test runs it): `V1` and `V2` both `Note { title: String }` → one CP123 warning;
/// `V2` gives `title` the renaming identifier `heading` → one CP123 error; `V2` gives it a default
/// value → one CP123 warning that says the default reaches new objects only.
package enum HashIdenticalVersionsCheck {
    /// Findings for `versions` (history order); `hashes` by version name; `inMemory`: the versions
    /// a step of the chain leaves by an in-memory migration (with a mapping model).
    package static func findings(_ versions: [ModelVersion], hashes: [String: VersionHashes], inMemory: Set<String> = []) -> [Diagnostic] {
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
            for second in group.dropFirst() { findings.append(finding(first, second, inMemory: inMemory)) }
        }
        return findings
    }

    /// A difference between two hash-identical versions, by what it changes.
    package struct Difference {
        package enum Effect {
            /// Read from the source model by a migration: which version Core Data picks matters.
            case readByMigration
            /// Read by an in-memory migration only (a value transformer).
            case readInMemory
            /// Reaches new objects only (a default value).
            case newObjectsOnly
            /// May be read by the in-place migration (indexes, userInfo); not verified.
            case unverified
        }

        package var effect: Effect
        package var text: String
    }

    static func finding(_ a: ModelVersion, _ b: ModelVersion, inMemory: Set<String>) -> Diagnostic {
        let differences = (a.model.flatMap { old in b.model.map { unhashedDifferences(old, $0) } }) ?? []
        let location = SourceLocation(file: b.path)
        let runsInMemory = inMemory.contains(a.name) || inMemory.contains(b.name)
        let read = differences.filter { $0.effect == .readByMigration || ($0.effect == .readInMemory && runsInMemory) }.map(\.text)
        if !read.isEmpty {
            return Diagnostic(.hashIdenticalVersions, severity: .error,
                              "'\(a.name)' and '\(b.name)' have identical entity version hashes but differ in what migration reads and the hash ignores: \(listed(read)); which of them Core Data takes as a store's source model is undefined",
                              at: location, versions: [a.name, b.name])
        }
        var message = "'\(a.name)' and '\(b.name)' have identical entity version hashes: Core Data treats them as one version (no migration runs between them)"
        let defaults = differences.filter { $0.effect == .newObjectsOnly }.map(\.text)
        if !defaults.isEmpty { message += "; \(listed(defaults)): a new default applies to new objects only, existing rows keep their values" }
        let transformers = differences.filter { $0.effect == .readInMemory }.map(\.text)
        if !transformers.isEmpty { message += "; \(listed(transformers)): only a migration that runs in memory (with a mapping model) decodes values with it, and no step from these versions does" }
        let unverified = differences.filter { $0.effect == .unverified }.map(\.text)
        if !unverified.isEmpty { message += "; \(listed(unverified)): whether a store's in-place migration reads this from its source model is unverified" }
        return Diagnostic(.hashIdenticalVersions, message, at: location, versions: [a.name, b.name])
    }

    /// The first three texts, then how many more.
    package static func listed(_ texts: [String]) -> String {
        texts.prefix(3).joined(separator: "; ") + (texts.count > 3 ? "; and \(texts.count - 3) more" : "")
    }

    /// What differs between two hash-identical models among the fields a migration might read.
    package static func unhashedDifferences(_ old: ObjectModel, _ new: ObjectModel) -> [Difference] {
        let before = old.resolved()
        var result: [Difference] = []
        func show(_ value: String?) -> String { value.map { "'\($0)'" } ?? "none" }
        func add(_ effect: Difference.Effect, _ text: String) { result.append(Difference(effect: effect, text: text)) }
        for entity in new.resolved().entities {
            guard let previous = before.entity(named: entity.name) else { continue }
            if previous.entity.renamingIdentifier != entity.entity.renamingIdentifier {
                add(.readByMigration, "'\(entity.name)' renaming identifier \(show(previous.entity.renamingIdentifier)) → \(show(entity.entity.renamingIdentifier))")
            }
            let attributes = Dictionary(previous.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for attribute in entity.attributes where !entity.isInherited(attribute.name) {
                guard let was = attributes[attribute.name] else { continue }
                let label = "'\(entity.name).\(attribute.name)'"
                if was.renamingIdentifier != attribute.renamingIdentifier {
                    add(.readByMigration, "\(label) renaming identifier \(show(was.renamingIdentifier)) → \(show(attribute.renamingIdentifier))")
                }
                if attribute.type == .transformable, was.valueTransformerName != attribute.valueTransformerName {
                    add(.readInMemory, "\(label) value transformer \(show(was.valueTransformerName)) → \(show(attribute.valueTransformerName))")
                }
                if was.defaultValueString != attribute.defaultValueString || was.defaultDateTimeInterval != attribute.defaultDateTimeInterval {
                    add(.newObjectsOnly, "\(label) default \(show(was.defaultValueString ?? was.defaultDateTimeInterval)) → \(show(attribute.defaultValueString ?? attribute.defaultDateTimeInterval))")
                }
                if was.isIndexed != attribute.isIndexed {
                    add(.unverified, "\(label) \(attribute.isIndexed ? "becomes" : "is no longer") indexed")
                }
                if was.userInfo != attribute.userInfo {
                    add(.unverified, "\(label) userInfo changes")
                }
            }
            let relationships = Dictionary(previous.relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for relationship in entity.relationships where !entity.isInherited(relationship.name) {
                guard let was = relationships[relationship.name], was.renamingIdentifier != relationship.renamingIdentifier else { continue }
                add(.readByMigration, "'\(entity.name).\(relationship.name)' renaming identifier \(show(was.renamingIdentifier)) → \(show(relationship.renamingIdentifier))")
            }
            if previous.entity.fetchIndexes != entity.entity.fetchIndexes || previous.entity.compoundIndexes != entity.entity.compoundIndexes {
                add(.unverified, "'\(entity.name)' indexes change")
            }
        }
        return result
    }
}
