import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP210 UnverifiedChange: a change Core Data infers with an unverified or data-dependent outcome.
    ///
    /// Raised by the inference rules below: not-hashed (a transformer or class change), relationship-destination-change and
    /// uniqueness-constraint-change.
    package static let unverifiedChange = DiagnosticCode(
        "CP210", name: "UnverifiedChange", severity: .warning,
        summary: "A change Core Data infers with an unverified or data-dependent outcome",
        help: "For example a relationship pointing at another entity (the builder does not compare destinations), a new uniqueness constraint (the migration fails on stores with duplicates; a note when the step runs as a custom stage, whose code can remove them first), or a value transformer change (no migration converts the stored bytes). Test the migration on a real store.",
        examples: [
            .versions("a relationship points at another surviving entity (outcome unverified)", versions: [
                RuleExampleFixtures.note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + RuleExampleFixtures.tag + RuleExampleFixtures.folder,
                RuleExampleFixtures.note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#) + RuleExampleFixtures.tag + RuleExampleFixtures.folder,
            ], expected: 1),
            .versions("a to-one relationship becomes to-many", versions: [RuleExampleFixtures.toOneTags, RuleExampleFixtures.toManyTags], expected: 0),
        ])
}
extension InferenceRules {
    /// §1.3–§1.5, §1.10: what no entity hash covers moves no store; Core Data runs no migration
    /// for it. Delete rules and transient properties are not even listed as changes.
    package static let notHashed = InferenceRule(
        id: "not-hashed",
        checks: "Default values, indexes, value transformers and class names, delete rules, renaming identifiers and transient "
            + "properties are not hash inputs: changing only them runs no migration (a transformer change is still worth a look: "
            + "nothing converts the stored bytes)",
        basis: .coreDataBuilder, code: .unverifiedChange,
        examples: [
            example("delete rule", entity("Note", toOne("tag", "Tag")) + entity("Tag"),
                    entity("Note", toOne("tag", "Tag").replacingOccurrences(of: "Nullify", with: "Cascade")) + entity("Tag"),
                    .none, fires: false),
            example("a transient attribute is added", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String") + attribute("cache", "String", "transient=\"YES\"")), .none, fires: false),
            example("a renaming identifier alone", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String"), "elementID=\"Memo\""), .none),
            example("a default value", entity("Note", attribute("n", "Integer 16", "optional=\"YES\" defaultValueString=\"0\"")),
                    entity("Note", attribute("n", "Integer 16", "optional=\"YES\" defaultValueString=\"1\"")), .none),
        ])
}
extension InferenceRules {
    /// §4.2: the builder does not compare a relationship's destination entity; what the
    /// migration does with the existing links is [open].
    package static let relationshipDestinationChange = InferenceRule(
        id: "relationship-destination-change",
        checks: "A matched relationship points at another entity: the builder does not compare destinations and infers the step, "
            + "but what the migration does with the existing links is unverified",
        basis: .unverified, code: .unverifiedChange,
        examples: [
            example("points at an unrelated surviving entity",
                    entity("A", toOne("b", "B")) + entity("B") + entity("C"),
                    entity("A", toOne("b", "C")) + entity("B") + entity("C"), .inferred),
            example("points at the renamed old destination",
                    entity("A", toOne("b", "B")) + entity("B", attribute("x", "String")),
                    entity("A", toOne("b", "Bee")) + entity("Bee", attribute("x", "String"), "elementID=\"B\""), .inferred, fires: false),
        ])
}
extension InferenceRules {
    /// §1.5, §5: an entity's own uniqueness constraints enter its hash, so changing them migrates;
    /// the rebuilt table's unique index fails when stored rows already share the values.
    package static let uniquenessConstraintChange = InferenceRule(
        id: "uniqueness-constraint-change",
        checks: "An entity's own uniqueness constraints change: its hash changes, so a migration runs; the builder ignores "
            + "constraints, but the rebuilt table's unique index fails the migration when rows already share the values",
        basis: .coreDataBuilder, code: .unverifiedChange,
        examples: [
            example("a constraint is added", entity("Note", attribute("title", "String")),
                    entity("Note", attribute("title", "String")
                       + "<uniquenessConstraints><uniquenessConstraint><constraint value=\"title\"/></uniquenessConstraint></uniquenessConstraints>"),
                    .inferred),
        ])
}

extension InferenceRules {
    /// A matched entity's own uniqueness constraints change (removing them raises no finding).
    static func uniquenessConstraints(_ pair: EntityPair) -> InferenceFindings {
        let oldConstraints = Set(pair.source.entity.uniquenessConstraints.map { $0.joined(separator: ",") }.filter { !$0.isEmpty })
        let newConstraints = Set(pair.destination.entity.uniquenessConstraints.map { $0.joined(separator: ",") }.filter { !$0.isEmpty })
        guard oldConstraints != newConstraints else { return [] }
        let name = pair.destination.entity.name
        let added = newConstraints.subtracting(oldConstraints).sorted()
        let detail = added.isEmpty
            ? "entity '\(name)' removes uniqueness constraints (a hash input: the table is rebuilt)"
            : "entity '\(name)' adds a uniqueness constraint on " + added.map { "(\($0.replacingOccurrences(of: ",", with: ", ")))" }.joined(separator: " and ")
                + ": a hash input, so the table is rebuilt, and its unique index fails the migration on stores where rows already share "
                + "the values (a dry run counts them)"
        return [uniquenessConstraintChange.change(.uniquenessChanged, entity: name, detail: detail, verdict: .inferable,
                                                  code: added.isEmpty ? .some(nil) : nil, location: pair.location)]
    }

    /// A uniqueness constraint added in a step the app runs as a custom stage whose
    /// `willMigrate` runs on the old store first and can remove the rows that share the values:
    /// what the finding adds (it is then a note, since chainplan does not read that code).
    static func inCustomStage(_ change: ModelChange) -> String? {
        guard change.kind == .uniquenessChanged, change.code == .unverifiedChange else { return nil }
        return "; the step runs as a custom stage, whose willMigrate must remove those rows first (chainplan does not read its code)"
    }

    /// A matched entity's indexes change: not a hash input.
    static func indexes(_ pair: EntityPair) -> InferenceFindings {
        let (s, d) = (pair.source.entity, pair.destination.entity)
        guard Set(s.fetchIndexes.map(\.name)) != Set(d.fetchIndexes.map(\.name)) || Set(s.compoundIndexes) != Set(d.compoundIndexes) else { return [] }
        return [notHashed.change(.indexChanged, entity: d.name, detail: "entity '\(d.name)' changes its indexes (not a hash input)",
                                 verdict: .noMigration, code: .some(nil), location: pair.location)]
    }

    /// A matched attribute's default value changes: not a hash input.
    static func defaultValue(_ pair: AttributePair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        guard a.defaultValueString != b.defaultValueString || a.defaultDateTimeInterval != b.defaultDateTimeInterval else { return [] }
        return [notHashed.change(.defaultValueChanged, entity: pair.entity, property: b.name,
                                 detail: "attribute \(pair.label) changes its default value (not a hash input)",
                                 verdict: .noMigration, code: .some(nil), location: pair.location)]
    }

    /// A transformable attribute's value transformer or class changes. Neither is a hash input:
    /// no migration converts the stored bytes, which the new transformer (or class) must still read.
    static func transformer(_ pair: AttributePair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        guard a.type == .transformable, b.type == .transformable,
              (a.valueTransformerName ?? "") != (b.valueTransformerName ?? "") || (a.customClassName ?? "") != (b.customClassName ?? "")
        else { return [] }
        return [notHashed.change(
            .transformerChanged, entity: pair.entity, property: b.name,
            detail: "transformable attribute \(pair.label) changes its value transformer or class "
                + "(\(a.valueTransformerName ?? "default") / \(a.customClassName ?? "none") → \(b.valueTransformerName ?? "default") / \(b.customClassName ?? "none")): "
                + "no migration converts stored values, so the new one must decode what the old one wrote",
            verdict: .noMigration, location: pair.location)]
    }

    /// A matched relationship points somewhere other than where its old destination's rows go.
    static func relationshipDestination(_ pair: RelationshipPair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        guard pair.survivingDestination != b.destinationEntity else { return [] }
        let moved = "relationship \(pair.label) now points to '\(b.destinationEntity ?? "?")' instead of '\(a.destinationEntity ?? "?")'"
        if pair.survivingDestination == nil, a.destinationEntity == b.destinationEntity {
            // The destination entity is dropped and re-added (reported with the entity): its links go with it.
            return []
        }
        if pair.survivingDestination == nil {
            // The old destination's rows are deleted (reported with the entity): no link survives.
            return [relationshipDestinationChange.change(
                .destinationChanged, entity: pair.entity, property: b.name,
                detail: moved + " ('\(a.destinationEntity ?? "?")' is removed, so its links are dropped)",
                verdict: .inferable, code: .some(nil), basis: .coreDataBuilder, location: pair.location)]
        }
        return [relationshipDestinationChange.change(
            .destinationChanged, entity: pair.entity, property: b.name,
            detail: moved + ": the builder does not compare destinations and infers the step, but what the migration does with the "
                + "existing links is unverified",
            verdict: .inferable, location: pair.location)]
    }

    /// For versions with equal hashes: entities and properties that keep their name but change
    /// their key (renaming identifier). No migration runs now, but the next inferred step keys
    /// them by the new identifier (Wire 2.46.0 → 2.47.0 → 2.48.0).
    static func identifierNotes(source: ResolvedView, destination: ResolvedView, files: StepFiles) -> [ModelChange] {
        var notes: [ModelChange] = []
        func note(_ what: String, _ entity: String, _ property: String?, _ old: String?, _ new: String?, _ line: Int?, _ column: Int?) {
            let from = old.flatMap { $0.isEmpty ? nil : "'\($0)'" } ?? "none"
            let to = new.flatMap { $0.isEmpty ? nil : "'\($0)'" } ?? "none"
            notes.append(notHashed.change(
                .renamingIdentifierChanged, entity: entity, property: property,
                detail: "\(what) changes its renaming identifier from \(from) to \(to): not a hash input, so no migration runs now, "
                    + "but the next inferred step pairs it by its new key",
                verdict: .noMigration, code: .some(nil), location: files.destination(line, column)))
        }
        for d in destination.entities {
            guard let s = source.entity(d.entity.name) else { continue }
            if (s.entity.renamingIdentifier ?? "") != (d.entity.renamingIdentifier ?? "") {
                note("entity '\(d.entity.name)'", d.entity.name, nil, s.entity.renamingIdentifier, d.entity.renamingIdentifier, d.entity.line, d.entity.column)
            }
            let old = Dictionary(s.entity.attributes.map { ($0.name, $0.renamingIdentifier ?? "") }
                                    + s.entity.relationships.map { ($0.name, $0.renamingIdentifier ?? "") },
                                 uniquingKeysWith: { first, _ in first })
            for a in d.entity.attributes where old[a.name].map({ $0 != (a.renamingIdentifier ?? "") }) ?? false {
                note("attribute '\(d.entity.name).\(a.name)'", d.entity.name, a.name, old[a.name], a.renamingIdentifier, a.line, a.column)
            }
            for r in d.entity.relationships where old[r.name].map({ $0 != (r.renamingIdentifier ?? "") }) ?? false {
                note("relationship '\(d.entity.name).\(r.name)'", d.entity.name, r.name, old[r.name], r.renamingIdentifier, r.line, r.column)
            }
        }
        return notes
    }
}
