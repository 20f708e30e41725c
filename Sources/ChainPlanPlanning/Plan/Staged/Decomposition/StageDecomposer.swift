import ChainPlanInference
import ChainPlanReaders
/// Suggests decompositions of the chain's steps into inferable steps plus a custom stage that
/// moves the data (reference §6.2.1: expand → move data in handlers → contract, WWDC 2023):
/// - attribute moved into a new entity (`MovedAttributes`, one attribute): the intermediate is
///   the destination with the attribute kept; a custom stage into it copies the values in its
///   `didMigrate` handler; a lightweight step then removes the attribute;
/// - entity split (several attributes of one entity moved into a new entity): the same, with
///   every moved attribute kept in the intermediate;
/// - optional → mandatory without a default (`MandatoryWithoutDefault`): the intermediate is the
///   destination with the attributes still optional; a custom stage from it fills the empty
///   values in its `willMigrate` handler, at the source model of the mandatory change; when the
///   intermediate hashes like the source, there is none and the custom stage starts at the source.
/// Each step of a suggestion is classified by the chain's classifier on the intermediate models;
/// a suggestion is made only when every one is lightweight.
package enum StageDecomposer {
    static func suggestions(bundle: ModelBundle, order: [String]) -> [Decomposition] {
        guard order.count > 1 else { return [] }
        let existing = bundle.versionNames
        var out: [Decomposition] = []
        for step in 0..<(order.count - 1) {
            let from = order[step], to = order[step + 1]
            guard let old = bundle.version(named: from)?.model, let new = bundle.version(named: to)?.model,
                  let name = intermediateName(from: from, existing: existing) else { continue }
            if let moved = moves(bundle: bundle, from: from, to: to, old: old, new: new, name: name) {
                out.append(moved)
            } else if let filled = fills(bundle: bundle, from: from, to: to, old: old, new: new, name: name) {
                out.append(filled)
            }
        }
        return out
    }

    /// The suffixes tried, in order, for an intermediate version's name after its source's.
    static let intermediateSuffixes = [" step 1", " 1 step 1", "1 step 1", " 0 step 1", "0 step 1"]

    /// The intermediate version's name: `from` and the first suffix with which it sorts, in the
    /// bundle's natural version order (`VersionOrder`, the reader's history order), right after
    /// `from` and before every other version after it (so before the step's destination):
    /// `Aircraft V2 step 1` (before `Aircraft V4`), `Model 1 step 1` (`Model step 1` would sort
    /// after `Model 2`), `V1 step 1` (before `V2`). A version of that name already in the bundle
    /// is not skipped: writing then refuses (CP514) rather than pick a second name. Nil when no
    /// suffix sorts there (then no decomposition is suggested for the step).
    static func intermediateName(from: String, existing: [String]) -> String? {
        for suffix in intermediateSuffixes {
            let name = from + suffix
            guard VersionOrder.areInIncreasingOrder(from, name) else { continue }
            let later = existing.filter { $0 != name && $0 != from && !VersionOrder.areInIncreasingOrder($0, from) }
            if later.allSatisfy({ VersionOrder.areInIncreasingOrder(name, $0) }) { return name }
        }
        return nil
    }

    /// The classifier for `from`, the intermediate and `to` (only those three versions).
    private static func classifier(bundle: ModelBundle, from: String, to: String, intermediate: ModelVersion) -> StepClassifier? {
        guard let source = bundle.version(named: from), let destination = bundle.version(named: to) else { return nil }
        return StepClassifier(bundle: ModelBundle(name: bundle.name, path: bundle.path, versions: [source, intermediate, destination], currentVersion: to))
    }

    fileprivate static func intermediate(_ name: String, bundle: ModelBundle, base: String, edits: [ModelEdit]) -> (IntermediateVersion, ModelVersion)? {
        guard let model = bundle.version(named: base)?.model,
              let edited = ModelEditing.apply(edits, to: model, sources: { bundle.version(named: $0)?.model }) else { return nil }
        return (IntermediateVersion(name: name, base: base, edits: edits),
                ModelVersion(name: name, path: "\(bundle.path)/\(name).xcdatamodel/contents", model: edited))
    }


    private static func moves(bundle: ModelBundle, from: String, to: String, old: ObjectModel, new: ObjectModel, name: String) -> Decomposition? {
        let moves = MovedAttributes.find(old: old, new: new)
        guard !moves.isEmpty else { return nil }
        let edits = moves.flatMap { move in
            move.pairs.map { ModelEdit(kind: .restoreAttribute, entity: move.entity, attribute: $0.from, sourceVersion: from, sourceEntity: move.oldEntity) }
        }
        guard let (version, model) = intermediate(name, bundle: bundle, base: to, edits: edits),
              let classifier = classifier(bundle: bundle, from: from, to: to, intermediate: model) else { return nil }
        let expand = classifier.classify(from: from, to: name).0.migration
        let contract = classifier.classify(from: name, to: to).0.migration
        guard expand == .lightweight, contract == .lightweight else { return nil }
        let moved = moves.flatMap { move in move.pairs.map { "'\(move.entity).\($0.from)'" } }
        let work = moves.map { DataWork.copy(entity: $0.entity, relationship: $0.relationship, destination: $0.destination, pairs: $0.pairs) }
        let pairs = moves.reduce(0) { $0 + $1.pairs.count }
        let pattern: Decomposition.Pattern = pairs == 1 ? .attributeToEntity : .entitySplit
        let destinations = moves.map(\.destination).quotedList
        let relationships = moves.map { "\($0.entity).\($0.relationship.name)" }.quotedList
        let summary = pattern == .attributeToEntity
            ? "\(moved.joined()) moves into the new entity \(destinations): inferred in one step its values are deleted"
            : "\(moved.joined(separator: ", ")) move into the new entity \(destinations) (an entity split): inferred in one step their values are deleted"
        return Decomposition(from: from, to: to, pattern: pattern, summary: summary, intermediates: [version], steps: [
            DecomposedStep(from: from, to: name, stage: .custom, migration: expand,
                           does: "adds \(destinations) and \(relationships), keeps \(moved.joined(separator: ", ")); didMigrate at '\(name)' copies the values into \(destinations) in batches",
                           work: work),
            DecomposedStep(from: name, to: to, stage: .lightweight, migration: contract,
                           does: "removes \(moved.joined(separator: ", ")) (already copied)", work: []),
        ])
    }

    private static func fills(bundle: ModelBundle, from: String, to: String, old: ObjectModel, new: ObjectModel, name: String) -> Decomposition? {
        let targets = MandatoryWithoutDefault.find(old: old, new: new)
        guard !targets.isEmpty else { return nil }
        let edits = targets.map { ModelEdit(kind: .makeOptional, entity: $0.entity, attribute: $0.attribute) }
        guard let (version, model) = intermediate(name, bundle: bundle, base: to, edits: edits),
              let classifier = classifier(bundle: bundle, from: from, to: to, intermediate: model) else { return nil }
        let expand = classifier.classify(from: from, to: name).0.migration
        let contract = classifier.classify(from: name, to: to).0.migration
        let attributes = targets.map { "\($0.entity).\($0.attribute)" }
        let work = DataWork.fills(targets)
        let summary = "\(attributes.quotedList) \(targets.count == 1 ? "becomes" : "become") mandatory without a default: inferred in one step the migration fails (134110) on the first row without a value"
        guard contract == .lightweight else { return nil }
        if expand == .none {
            // Optionality is the only change: the custom stage starts at the source itself.
            let direct = classifier.classify(from: from, to: to).0.migration
            guard direct == .lightweight else { return nil }
            return Decomposition(from: from, to: to, pattern: .optionalToMandatory, summary: summary, intermediates: [], steps: [
                DecomposedStep(from: from, to: to, stage: .custom, migration: direct,
                               does: "willMigrate at '\(from)' fills the empty values in batches; the migration makes \(attributes.quotedList) mandatory", work: work),
            ])
        }
        guard expand == .lightweight else { return nil }
        return Decomposition(from: from, to: to, pattern: .optionalToMandatory, summary: summary, intermediates: [version], steps: [
            DecomposedStep(from: from, to: name, stage: .lightweight, migration: expand,
                           does: "the step's other changes, with \(attributes.quotedList) still optional", work: []),
            DecomposedStep(from: name, to: to, stage: .custom, migration: contract,
                           does: "willMigrate at '\(name)' fills the empty values in batches; the migration makes \(attributes.quotedList) mandatory", work: work),
        ])
    }
}

extension StageDecomposer {
    /// `bundle` with every suggestion's intermediate versions inserted after their step's source
    /// (the parsed models, edits applied), for planning and classifying the decomposed chain.
    package static func expanded(_ bundle: ModelBundle, with decompositions: [Decomposition]) -> ModelBundle {
        var versions = bundle.versions
        for decomposition in decompositions {
            guard var position = versions.firstIndex(where: { $0.name == decomposition.from }) else { continue }
            for version in decomposition.intermediates {
                guard let (_, model) = intermediate(version.name, bundle: bundle, base: version.base, edits: version.edits) else { continue }
                position += 1
                versions.insert(model, at: position)
            }
        }
        return ModelBundle(name: bundle.name, path: bundle.path, versions: versions, currentVersion: bundle.currentVersion)
    }

    /// The chain `order` with every suggestion's intermediates inserted.
    package static func expandedOrder(_ order: [String], with decompositions: [Decomposition]) -> [String] {
        order.flatMap { version in [version] + decompositions.filter { $0.from == version }.flatMap { $0.intermediates.map(\.name) } }
    }
}
