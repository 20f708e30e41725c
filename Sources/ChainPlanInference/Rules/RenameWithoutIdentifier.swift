import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP202 RenameWithoutIdentifier: a likely rename has no renaming identifier.
    ///
    /// Raised by the inference rules below, likely-entity-rename and likely-property-rename (`StageSynthesis` plans the copy a
    /// stage needs for them).
    package static let renameWithoutIdentifier = DiagnosticCode(
        "CP202", name: "RenameWithoutIdentifier", severity: .warning,
        summary: "A likely rename has no renaming identifier",
        help: "An entity or property was removed and one of the same kind added in the same step, or an element keeps its name but its key (renaming identifier, else name) no longer equals the other version's. Core Data matches keys exactly and infers this as drop + add: the data is deleted. Set the renaming identifier (Xcode: Versioning > Renaming ID) to the old key the finding names.",
        examples: [
            .versions("an attribute renamed without a renaming identifier", versions: [
                #"<entity name="Note"><attribute name="fecha" optional="YES" attributeType="Date"/></entity>"#,
                #"<entity name="Note"><attribute name="momento" optional="YES" attributeType="Date"/></entity>"#,
            ], expected: 1),
            .versions("renamed with the old name as renaming identifier", versions: [
                #"<entity name="Note"><attribute name="fecha" optional="YES" attributeType="Date"/></entity>"#,
                #"<entity name="Note"><attribute name="momento" optional="YES" attributeType="Date" elementID="fecha"/></entity>"#,
            ], expected: 0),
        ])
}
extension InferenceRules {
    /// A heuristic: a removed and an added entity with similar attributes look like a rename that
    /// lacks its renaming identifier. Core Data does not guess: it removes and adds.
    package static let likelyEntityRename = InferenceRule(
        id: "likely-entity-rename",
        checks: "An entity is removed and another added with mostly the same attributes: it looks like a rename, "
            + "but without the renaming identifier Core Data drops and re-adds it and every row is deleted",
        basis: .coreDataBuilder, code: .renameWithoutIdentifier,
        examples: [
            example("renamed without a renaming identifier",
                    entity("Amount", attribute("value", "Double") + attribute("name", "String")),
                    entity("Unit", attribute("value", "Double") + attribute("name", "String")), .inferred),
            example("renamed with it",
                    entity("Amount", attribute("value", "Double") + attribute("name", "String")),
                    entity("Unit", attribute("value", "Double") + attribute("name", "String"), "elementID=\"Amount\""),
                    .inferred, fires: false),
        ])
}
extension InferenceRules {
    /// A heuristic: a removed and an added property of the same kind and type look like a rename
    /// that lacks its renaming identifier.
    package static let likelyPropertyRename = InferenceRule(
        id: "likely-property-rename",
        checks: "A property is removed and another of the same kind and type added: it looks like a rename, but without the renaming "
            + "identifier Core Data drops and re-adds it and the values are deleted",
        basis: .coreDataBuilder, code: .renameWithoutIdentifier,
        examples: [
            example("renamed without a renaming identifier", entity("Note", attribute("fecha", "Date")),
                    entity("Note", attribute("momento", "Date")), .inferred),
            example("renamed with it", entity("Note", attribute("fecha", "Date")),
                    entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"")), .inferred, fires: false),
            example("an identifier from an earlier rename does not chain",
                    entity("Note", attribute("momento", "Date", "optional=\"YES\" elementID=\"fecha\"")),
                    entity("Note", attribute("instante", "Date", "optional=\"YES\" elementID=\"momento\"")), .inferred),
        ])
}

extension InferenceRules {
    /// An entity's stored attributes as `name:type`, for likely renames.
    static func attributeSignatures(_ entity: ResolvedEntityView) -> Set<String> {
        Set(entity.attributes.filter { !$0.isTransient }.map { "\($0.name):\($0.type.xmlValue)" })
    }

    /// The position (in `added`: each added entity's `attributeSignatures`) of the added entity
    /// that most likely renames `gone`: at least half of their attributes shared, the most shared.
    static func likelyEntityTwin(of gone: ResolvedEntityView, among added: [Set<String>]) -> Int? {
        let goneAttributes = attributeSignatures(gone)
        var best: (Double, Int)?
        for (position, attributes) in added.enumerated() {
            let union = goneAttributes.union(attributes)
            let similarity = union.isEmpty ? (added.count == 1 ? 1 : 0) : Double(goneAttributes.intersection(attributes).count) / Double(union.count)
            if similarity >= 0.5, similarity > (best?.0 ?? 0) { best = (similarity, position) }
        }
        return best?.1
    }

    /// A removed entity (keyed `key`) and the added one that likely renames it (keyed `twinKey`).
    static func suspectedEntityRename(_ gone: ResolvedEntityView, key: String, twin: ResolvedEntityView, twinKey: String,
                                      files: StepFiles) -> ModelChange {
        let keyed = key == gone.entity.name ? "" : " (keyed by its renaming identifier '\(key)')"
        let detail = twin.entity.name == gone.entity.name
            ? "entity '\(gone.entity.name)' is keyed by its renaming identifier '\(key)' in the source and by '\(twinKey)' here: "
                + "Core Data does not pair them, so it removes the entity and adds it again, deleting every row; give it renaming identifier '\(key)' to keep the data"
            : "entity '\(twin.entity.name)' looks like a rename of '\(gone.entity.name)'\(keyed); add renaming identifier '\(key)' "
                + "to '\(twin.entity.name)' to keep the data: without it Core Data removes '\(gone.entity.name)' and adds '\(twin.entity.name)', deleting every row"
        return likelyEntityRename.change(.likelyEntityRename, entity: gone.entity.name, detail: detail, verdict: .dataLoss,
                                         location: files.destination(twin.entity.line, twin.entity.column))
    }

    /// The added property (its index in `candidates`' first elements) that most likely renames
    /// `gone`: the only one of the same kind and type when `gone` is the only removed one of that
    /// type (among `sources`), else one with a close name.
    static func likelyPropertyTwin(_ gone: StoredProperty, among candidates: [(Int, StoredProperty)], sources: [StoredProperty]) -> Int? {
        let sameType = candidates.filter { $0.1.signature == gone.signature }
        guard !sameType.isEmpty else { return nil }
        let removedOfType = sources.filter { $0.signature == gone.signature }.count
        if removedOfType == 1, sameType.count == 1 { return sameType[0].0 }
        let goneName = Array(gone.name.lowercased().unicodeScalars)
        let scored = sameType.map { ($0.0, NameSuggestions.editDistance(goneName, Array($0.1.name.lowercased().unicodeScalars))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, goneName.count / 3) else { return nil }
        return best.0
    }

    /// A removed property and the added one that likely renames it.
    static func suspectedPropertyRename(_ gone: StoredProperty, _ new: StoredProperty, sourceEntity: String, entity: String,
                                        files: StepFiles) -> ModelChange {
        let keyed = gone.key == gone.name ? "" : " (keyed by its renaming identifier '\(gone.key)')"
        let detail = new.name == gone.name
            ? "'\(entity).\(new.name)' is keyed by its renaming identifier '\(gone.key)' in the source and by '\(new.key)' here: Core Data does "
                + "not pair them, so it drops the values and adds an empty '\(new.name)'; give it renaming identifier '\(gone.key)' to keep the data"
            : "'\(entity).\(new.name)' looks like a rename of '\(sourceEntity).\(gone.name)'\(keyed); add renaming identifier '\(gone.key)' to "
                + "'\(new.name)' to keep the data: without it Core Data drops '\(gone.name)' and adds '\(new.name)', deleting the values"
        var rename = likelyPropertyRename.change(.likelyPropertyRename, entity: entity, property: new.name, detail: detail, verdict: .dataLoss,
                                                 location: files.destination(new.line, new.column))
        rename.sourceProperty = gone.name
        return rename
    }
}
