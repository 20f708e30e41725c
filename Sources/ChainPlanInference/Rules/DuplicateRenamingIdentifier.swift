import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP212 DuplicateRenamingIdentifier: two entities or properties share a renaming identifier.
    ///
    /// Raised by the inference rules below: duplicate-source-entity-key, duplicate-destination-entity-key and
    /// duplicate-source-property-key.
    package static let duplicateRenamingIdentifier = DiagnosticCode(
        "CP212", name: "DuplicateRenamingIdentifier", severity: .error,
        summary: "Two entities or properties share a renaming identifier",
        help: "Core Data keys entities and stored properties by renaming identifier, else name. Two source entities, two destination entities, or two stored properties of one source entity with the same key make it refuse to infer (134190 \"Each source entity / destination entity / property must have a unique renaming identifier\"; the app fails with 134140). Typical cause: an element renamed with the old name as identifier while a new one takes the old name. Remove or change one of the identifiers.",
        examples: [
            .versions("renamed with the old name as identifier, then a new entity takes the old name", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Memo" elementID="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 1),
            .versions("renamed only", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Memo" elementID="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 0),
        ])
}
extension InferenceRules {
    /// §4.1: two source entities with one key make the builder fail.
    package static let duplicateSourceEntityKey = InferenceRule(
        id: "duplicate-source-entity-key",
        checks: "Two source entities share a key (renaming identifier or name): the builder fails with 134190 "
            + "\"Each source entity must have a unique renaming identifier\" (the app sees 134140)",
        basis: .coreDataBuilder, code: .duplicateRenamingIdentifier,
        examples: [
            example("an entity's identifier equals another entity's name",
                    entity("Note", attribute("title", "String")) + entity("Memo", attribute("text", "String"), "elementID=\"Note\""),
                    entity("Note", attribute("title", "String"), "") + entity("Memo", attribute("text", "String") + attribute("x", "String")),
                    .refused),
            example("distinct keys", entity("Note", attribute("title", "String")) + entity("Memo"),
                    entity("Note", attribute("title", "String")) + entity("Memo", attribute("text", "String")),
                    .inferred, fires: false),
        ])
}
extension InferenceRules {
    /// §4.1: two destination entities with one key make the builder fail (the "rename, then
    /// re-add the old name" pattern).
    package static let duplicateDestinationEntityKey = InferenceRule(
        id: "duplicate-destination-entity-key",
        checks: "Two destination entities share a key, e.g. an entity renamed with the old name as identifier while a new entity "
            + "takes the old name: the builder fails with 134190 \"Each destination entity must have a unique renaming identifier\"",
        basis: .coreDataBuilder, code: .duplicateRenamingIdentifier,
        examples: [
            example("rename, then re-add the old name",
                    entity("Note", attribute("title", "String")),
                    entity("Memo", attribute("title", "String"), "elementID=\"Note\"") + entity("Note", attribute("body", "String")),
                    .refused),
            example("rename without re-adding",
                    entity("Note", attribute("title", "String")),
                    entity("Memo", attribute("title", "String"), "elementID=\"Note\""), .inferred, fires: false),
        ])
}
extension InferenceRules {
    /// §4.2: two stored properties of one source entity (inherited ones included) with one key
    /// make the builder fail. Duplicate destination keys do not: both take the same source.
    package static let duplicateSourcePropertyKey = InferenceRule(
        id: "duplicate-source-property-key",
        checks: "Two stored properties of one source entity share a key, typically a property renamed with the old name as identifier "
            + "and a new one re-added under the old name in the version before: the builder fails with 134190 "
            + "\"Each property must have a unique renaming identifier\" (duplicate destination keys are accepted: both take the same values)",
        basis: .coreDataBuilder, code: .duplicateRenamingIdentifier,
        examples: [
            example("the version that renamed and re-added is the source",
                    entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"") + attribute("fecha", "Date")),
                    entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"") + attribute("fecha", "Date")
                       + attribute("body", "String")), .refused),
            example("rename, then re-add the old name (destination duplicates are accepted)",
                    entity("Note", attribute("fecha", "Date")),
                    entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"") + attribute("fecha", "Date")),
                    .inferred, fires: false),
        ])
}

extension InferenceRules {
    /// Source entities that share a key: one change per key, at its second entity.
    static func duplicateSourceEntityKeys(_ view: ResolvedView, files: StepFiles) -> InferenceFindings {
        duplicateEntityKeys(view, rule: duplicateSourceEntityKey, location: files.source,
                            reason: "Each source entity must have a unique renaming identifier")
    }

    /// Destination entities that share a key: one change per key, at its second entity.
    static func duplicateDestinationEntityKeys(_ view: ResolvedView, files: StepFiles) -> InferenceFindings {
        duplicateEntityKeys(view, rule: duplicateDestinationEntityKey, location: files.destination,
                            reason: "Each destination entity must have a unique renaming identifier")
    }

    private static func duplicateEntityKeys(_ view: ResolvedView, rule: InferenceRule, location: (Int?, Int?) -> SourceLocation?,
                                            reason: String) -> InferenceFindings {
        var findings: InferenceFindings = []
        for (key, indices) in sharedKeys(view.entityKeys) {
            let names = indices.map { "'\(view.entities[$0].entity.name)'" }.joined(separator: " and ")
            let second = view.entities[indices[1]].entity
            findings.changes.append(rule.change(
                .duplicateKey, entity: second.name,
                detail: "entities \(names) share the key '\(key)' (renaming identifier or name): Core Data refuses to infer the mapping "
                    + "(134190 \"\(reason)\"; the app fails with 134140)",
                verdict: .blocksInference, location: location(second.line, second.column)))
        }
        return findings
    }

    /// Stored properties of one source entity (inherited ones included) that share a key: one
    /// change per key, at its second property. Duplicate destination keys are accepted.
    static func duplicateSourcePropertyKeys(_ properties: [StoredProperty], sourceEntity: String, entity: String,
                                            files: StepFiles) -> InferenceFindings {
        var findings: InferenceFindings = []
        for (key, indices) in sharedKeys(properties.map(\.key)) {
            let names = indices.map { "'\(properties[$0].name)'" }.joined(separator: " and ")
            let second = properties[indices[1]]
            findings.changes.append(duplicateSourcePropertyKey.change(
                .duplicateKey, entity: entity, property: second.name,
                detail: "properties \(names) of '\(sourceEntity)' share the key '\(key)' (renaming identifier or name): Core Data refuses to infer "
                    + "the mapping (134190 \"Each property must have a unique renaming identifier\"; the app fails with 134140)",
                verdict: .blocksInference, location: files.source(second.line, second.column)))
        }
        return findings
    }

    /// The keys more than one element has, in key order, each with its elements' positions.
    private static func sharedKeys(_ keys: [String]) -> [(key: String, indices: [Int])] {
        var byKey: [String: [Int]] = [:]
        for (index, key) in keys.enumerated() { byKey[key, default: []].append(index) }
        return byKey.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
