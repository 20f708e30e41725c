import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
/// The mapping Core Data would infer between two model versions
/// (`NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`), with every
/// change found and its verdict.
public struct InferredMapping: Sendable, Hashable {
    public var entityMappings: [InferredEntityMapping]
    public var changes: [ModelChange]
    /// Source entity name → destination entity name, for entities whose rows survive.
    public var entityLineage: [String: String]
    /// Source (entity, property) → destination (entity, property), for persistent properties whose
    /// values survive.
    public var propertyLineage: [PropertyKey: PropertyKey]
    /// The checks that decide the migration on a real store: the mapping is flagged "could fail
    /// validation" for each (§4.2). Empty when nothing depends on the store's rows.
    public var validation: [ValidationCheck] = []
    /// False when the two versions' entity hash dictionaries are equal: Core Data runs no migration
    /// (§1.7), whatever else differs.
    public var needsMigration: Bool
    /// True when no change blocks inference.
    public var isInferable: Bool { !changes.contains { $0.verdict == .blocksInference } }
    /// Changes that block inference.
    public var blockingChanges: [ModelChange] { changes.filter { $0.verdict == .blocksInference } }
}

/// An entity and property name pair.
public struct PropertyKey: Sendable, Hashable, Codable, Comparable {
    public var entity: String
    public var property: String

    public init(_ entity: String, _ property: String) {
        self.entity = entity
        self.property = property
    }

    public static func < (lhs: PropertyKey, rhs: PropertyKey) -> Bool {
        (lhs.entity, lhs.property) < (rhs.entity, rhs.property)
    }
}

/// Infers mappings the way Core Data's builder does (`shared/reference/core-data-internals.md`
/// §4), one typed rule per file under `Rules/` (`InferenceRules.all`).
///
/// Matching: each side keys its entities, and the stored properties of each matched entity
/// (inherited ones and composite elements included), by renaming identifier, else name; exact
/// key equality pairs them, with no fallback from an identifier to the name. Whether a migration
/// runs at all is decided by the entity hash inputs alone (`EntityHashInputs`, from the hash engine's `HashInputTable`).
public enum MappingInference {
    /// Infers the mapping from `source` to `destination`. File paths locate changes
    /// (the destination's `contents`, or the source's for removals).
    public static func infer(
        from source: ObjectModel, to destination: ObjectModel,
        sourceFile: String? = nil, destinationFile: String? = nil
    ) -> InferredMapping {
        infer(from: ResolvedView(source), to: ResolvedView(destination), sourceFile: sourceFile, destinationFile: destinationFile)
    }

    /// The same, from models whose inheritance is already resolved (a chain resolves each
    /// version once, not once per step and direct jump it takes part in).
    static func infer(
        from source: ResolvedView, to destination: ResolvedView,
        sourceFile: String? = nil, destinationFile: String? = nil
    ) -> InferredMapping {
        var engine = Engine(source: source, destination: destination,
                            sourceFile: sourceFile, destinationFile: destinationFile)
        engine.run()
        guard source.hashInputs == destination.hashInputs else {
            return InferredMapping(entityMappings: engine.entityMappings, changes: engine.changes,
                                   entityLineage: engine.entityLineage, propertyLineage: engine.propertyLineage,
                                   validation: engine.validation.sorted(), needsMigration: true)
        }
        // Equal hashes (§1.7): the store opens as it is. Every row and value stays where it is,
        // whatever the builder would have paired; only what lies outside the hash is reported.
        let identity = destination.identityLineage { source.byName[$0] != nil }
        let changes = engine.changes.filter { $0.verdict == .noMigration } + engine.identifierNotes()
        return InferredMapping(entityMappings: [], changes: changes, entityLineage: identity.entities,
                               propertyLineage: identity.properties, validation: [], needsMigration: false)
    }
}

// MARK: - Resolved view (inheritance flattened, cycle-safe)

/// An entity with its inherited properties, for matching.
package struct ResolvedEntityView: Sendable {
    package var entity: Entity
    var root: String
    /// Attributes, inherited first, by name.
    package var attributes: [Attribute]
    package var relationships: [Relationship]
    /// What inference reads of it, locations left out (nil when the shortcut does not apply).
    var content: EntityContent?
}

package struct ResolvedView: Sendable {
    package var entities: [ResolvedEntityView]
    /// The model reader's resolution the views were built from (a chain's table plans reuse it).
    package let resolvedModel: ResolvedModel
    var byName: [String: Int]
    /// Composite attribute types (iOS 17).
    var composites: [CompositeType] = []
    /// What each entity's version hash covers, by entity name.
    var hashInputs: [String: EntityHashInputs] = [:]
    /// Lower-cased entity names, for spotting an attribute that became an entity.
    var lowercasedNames: Set<String> = []
    /// Each entity's key (renaming identifier, else name), in order, and the first entity of
    /// each key: what every inference the version takes part in matches on.
    var entityKeys: [String] = []
    var firstByKey: [String: Int] = [:]
    /// True when two entities share a key (the builder refuses: the inference reports it).
    var hasDuplicateKeys = false
    /// True when no entity has a parent or shares its name with another: every entity is the
    /// only member of its own hierarchy, so no hierarchy can merge into it.
    var isFlat = false

    /// True when `entity` is `ancestor` or lies below it (parents followed, cycles stopped).
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        var current: String? = entity
        var seen: Set<String> = []
        while let name = current, seen.insert(name).inserted {
            if name == ancestor { return true }
            current = self.entity(name)?.entity.parentEntity
        }
        return false
    }

    /// The stored elements of a composite attribute (see `CompositeType.elements`).
    func elements(of attribute: Attribute) -> [Attribute] {
        CompositeType.elements(of: attribute, among: composites)
    }

    /// Inheritance comes from the model reader's budgeted resolver (`ResolvedModel`), so a hostile
    /// inheritance fan-out costs classification no more than it costs reading. A name defined
    /// twice keeps both definitions here (inference reports the second, CP115); the second
    /// inherits what its parent resolved to.
    ///
    /// `previous`: the view of the version before (in a history most entities stay the same): an
    /// entity whose content it describes exactly (`EntityContent.describes`) takes that content and
    /// hash inputs instead of building its own (equal values, shared storage).
    package init(_ model: ObjectModel, budget: Int = ResolvedModel.defaultBudget, previous: ResolvedView? = nil) {
        var byName: [String: Int] = [:]
        for (index, entity) in model.entities.enumerated() where byName[entity.name] == nil {
            byName[entity.name] = index
        }
        let resolved = ResolvedModel(model, budget: budget)
        resolvedModel = resolved
        var views: [ResolvedEntityView] = []
        views.reserveCapacity(model.entities.count)
        for (index, entity) in model.entities.enumerated() {
            // Inherited properties first, then the entity's own; one property per name, the first kept.
            var inherited: ([Attribute], [Relationship]) = ([], [])
            var own = (entity.attributes, entity.relationships)
            var root = entity.name
            if byName[entity.name] == index, let first = resolved.entity(named: entity.name) {
                (inherited, own, root) = ((first.attributes, first.relationships), ([], []), first.rootEntityName)
            } else if let parent = entity.parentEntity, parent != entity.name, let above = resolved.entity(named: parent) {
                (inherited, root) = ((above.attributes, above.relationships), above.rootEntityName)
            }
            var names: Set<String> = []
            let attributes = inherited.0.filter { names.insert($0.name).inserted }
            let relationships = inherited.1.filter { names.insert($0.name).inserted }
            let ownAttributes = own.0.filter { names.insert($0.name).inserted }
            let ownRelationships = own.1.filter { names.insert($0.name).inserted }
            views.append(ResolvedEntityView(entity: entity, root: root, attributes: ownAttributes.isEmpty ? attributes : attributes + ownAttributes,
                                            relationships: ownRelationships.isEmpty ? relationships : relationships + ownRelationships))
        }
        self.byName = byName
        composites = model.composites
        var inputs: [String: EntityHashInputs] = [:]
        for (index, view) in views.enumerated() where inputs[view.entity.name] == nil {
            let parent = view.entity.parentEntity.flatMap { byName[$0] != nil ? $0 : nil }
            if byName[view.entity.name] == index, let previous, let known = previous.byName[view.entity.name],
               let content = previous.entities[known].content, let sameInputs = previous.hashInputs[view.entity.name],
               content.describes(view, parent: parent) {
                views[index].content = content
                inputs[view.entity.name] = sameInputs
                continue
            }
            views[index].content = EntityContent.make(view, parent: parent, isFirstOfName: byName[view.entity.name] == index)
            inputs[view.entity.name] = EntityHashInputs(entity: view.entity, parent: parent, attributes: view.attributes,
                                                        relationships: view.relationships) { [composites] in
                CompositeType.elements(of: $0, among: composites)
            }
        }
        self.entities = views
        hashInputs = inputs
        lowercasedNames = Set(views.map { $0.entity.name.lowercased() })
        entityKeys = views.map(Engine.entityKey)
        for (index, key) in entityKeys.enumerated() {
            if firstByKey[key] == nil { firstByKey[key] = index } else { hasDuplicateKeys = true }
        }
        isFlat = byName.count == views.count && views.allSatisfy { $0.root == $0.entity.name }
    }

    func entity(_ name: String) -> ResolvedEntityView? { byName[name].map { entities[$0] } }
}

// MARK: - Engine

/// A stored property of either kind, for matching (composite elements are attributes named
/// `composite.element`).
private enum Property {
    case attribute(Attribute)
    case relationship(Relationship)

    var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        }
    }

    /// Core Data's key: renaming identifier, else name.
    var key: String {
        switch self {
        case .attribute(let a): InferenceRules.key(name: a.name, renamingIdentifier: a.renamingIdentifier)
        case .relationship(let r): InferenceRules.key(name: r.name, renamingIdentifier: r.renamingIdentifier)
        }
    }

    /// Attribute, derived attribute or relationship: a key shared by two kinds is drop + add.
    var kind: String {
        switch self {
        case .attribute(let a): a.isDerived ? "derived attribute" : "attribute"
        case .relationship: "relationship"
        }
    }

    var line: Int? {
        switch self {
        case .attribute(let a): a.line
        case .relationship(let r): r.line
        }
    }

    var column: Int? {
        switch self {
        case .attribute(let a): a.column
        case .relationship(let r): r.column
        }
    }

    /// Kind and type: what a rename must keep.
    var signature: String {
        switch self {
        case .attribute(let a): "attribute:\(a.type.xmlValue)"
        case .relationship(let r): "relationship:\(r.destinationEntity ?? ""):\(r.isToMany)"
        }
    }
}

private struct Engine {
    let source: ResolvedView
    let destination: ResolvedView
    let sourceFile: String?
    let destinationFile: String?

    var changes: [ModelChange] = []
    var entityMappings: [InferredEntityMapping] = []
    var entityLineage: [String: String] = [:]
    /// Where each surviving source property goes (`InferredMapping.propertyLineage`).
    var propertyLineage: [PropertyKey: PropertyKey] = [:]
    var validation: [ValidationCheck] = []

    init(source: ResolvedView, destination: ResolvedView, sourceFile: String?, destinationFile: String?) {
        self.source = source
        self.destination = destination
        self.sourceFile = sourceFile
        self.destinationFile = destinationFile
    }

    func at(_ file: String?, _ line: Int?, _ column: Int?) -> SourceLocation? {
        file.map { SourceLocation(file: $0, line: line, column: line == nil ? nil : column) }
    }

    mutating func add(_ change: ModelChange) { changes.append(change) }

    /// A property (`property`: `attribute` or `relationship`) matched under another name by its
    /// renaming identifier: Core Data infers the rename.
    mutating func compareNames(_ kind: ModelChange.Kind, _ property: String, _ old: String, _ new: String, renamingIdentifier: String?,
                               sourceEntity: String, entity: String, location: SourceLocation?) {
        guard old != new else { return }
        add(InferenceRules.entityMatching.change(
            kind, entity: entity, property: new,
            detail: "\(property) '\(sourceEntity).\(old)' is renamed to '\(entity).\(new)' (renaming identifier '\(InferenceRules.key(name: new, renamingIdentifier: renamingIdentifier))')",
            verdict: .inferable, location: location))
    }

    /// A property's (`attribute` or `relationship`) version hash modifier changes: it forces a migration.
    mutating func compareModifiers(_ property: String, _ old: String?, _ new: String?, entity: String, name: String, location: SourceLocation?) {
        guard (old ?? "") != (new ?? "") else { return }
        add(InferenceRules.versionHashModifier.change(
            .hashModifierChanged, entity: entity, property: name,
            detail: "\(property) '\(entity).\(name)' changes its version hash modifier, forcing a migration", verdict: .inferable, location: location))
    }

    static func entityKey(_ view: ResolvedEntityView) -> String {
        InferenceRules.key(name: view.entity.name, renamingIdentifier: view.entity.renamingIdentifier)
    }

    mutating func run() {
        entityLineage.reserveCapacity(destination.entities.count)
        // 1. Keys on each side (each view keeps its own); duplicates make the builder fail.
        if source.hasDuplicateKeys {
            reportDuplicateEntityKeys(source.entityKeys, of: source, rule: InferenceRules.duplicateSourceEntityKey, file: sourceFile,
                                      reason: "Each source entity must have a unique renaming identifier")
        }
        if destination.hasDuplicateKeys {
            reportDuplicateEntityKeys(destination.entityKeys, of: destination, rule: InferenceRules.duplicateDestinationEntityKey, file: destinationFile,
                                      reason: "Each destination entity must have a unique renaming identifier")
        }
        // 2. Exact key equality.
        let sourceByKey = source.firstByKey
        let destinationKeys = destination.entityKeys
        var matches: [(Int, Int)] = []
        var matchedSources: Set<Int> = []
        for (index, key) in destinationKeys.enumerated() {
            guard let s = sourceByKey[key], matchedSources.insert(s).inserted else { continue }
            matches.append((s, index))
            // Known for every entity before any is compared: a relationship's destination is
            // judged by where that entity's rows go, whichever entity is compared first.
            entityLineage[source.entities[s].entity.name] = destination.entities[index].entity.name
        }
        let matchedDestinations = Set(matches.map(\.1))
        // 3. Hierarchy merges, then each matched pair.
        let merged = checkHierarchyMerges(matches)
        for (s, d) in matches {
            compareEntities(source.entities[s], destination.entities[d], inMerge: merged.contains(destination.entities[d].entity.name))
        }
        // 4. Removed and added entities, and likely renames among them.
        let removed = source.entities.indices.filter { !matchedSources.contains($0) }
        let added = destination.entities.indices.filter { !matchedDestinations.contains($0) }
        // Each added entity's stored attributes once, for every removed one to be compared with.
        let addedAttributes = removed.isEmpty ? [] : added.map { Self.attributeSignatures(destination.entities[$0]) }
        for goneIndex in removed {
            let gone = source.entities[goneIndex]
            let twinIndex = likelyEntityTwin(of: gone, among: addedAttributes)
            if let twinIndex {
                let twin = destination.entities[added[twinIndex]]
                let key = source.entityKeys[goneIndex]
                let keyed = key == gone.entity.name ? "" : " (keyed by its renaming identifier '\(key)')"
                let detail = twin.entity.name == gone.entity.name
                    ? "entity '\(gone.entity.name)' is keyed by its renaming identifier '\(key)' in the source and by '\(destination.entityKeys[added[twinIndex]])' here: "
                        + "Core Data does not pair them, so it removes the entity and adds it again, deleting every row; give it renaming identifier '\(key)' to keep the data"
                    : "entity '\(twin.entity.name)' looks like a rename of '\(gone.entity.name)'\(keyed); add renaming identifier '\(key)' "
                        + "to '\(twin.entity.name)' to keep the data: without it Core Data removes '\(gone.entity.name)' and adds '\(twin.entity.name)', deleting every row"
                add(InferenceRules.likelyEntityRename.change(
                    .likelyEntityRename, entity: gone.entity.name,
                    detail: detail,
                    verdict: .dataLoss, location: at(destinationFile, twin.entity.line, twin.entity.column)))
            }
            add(InferenceRules.removedEntity.change(
                .entityRemoved, entity: gone.entity.name,
                detail: "entity '\(gone.entity.name)' is removed; its rows are deleted",
                verdict: .dataLoss, code: twinIndex == nil ? .dataRemoved : .some(nil), location: at(sourceFile, gone.entity.line, gone.entity.column)))
            entityMappings.append(InferredEntityMapping(name: "Remove\(gone.entity.name)", kind: .remove,
                                                        source: gone.entity.name, destination: nil, propertyMappings: []))
        }
        for new in added.map({ destination.entities[$0] }) {
            add(InferenceRules.addedEntity.change(.entityAdded, entity: new.entity.name, detail: "entity '\(new.entity.name)' is added",
                                                  verdict: .inferable, location: at(destinationFile, new.entity.line, new.entity.column)))
            entityMappings.append(InferredEntityMapping(name: "Add\(new.entity.name)", kind: .add, source: nil,
                                                        destination: new.entity.name, propertyMappings: []))
            // An added entity's rows are all new: no mandatory property can lack a value.
        }
        entityMappings.sort { ($0.destination ?? $0.source ?? "", $0.name) < ($1.destination ?? $1.source ?? "", $1.name) }
    }

    mutating func reportDuplicateEntityKeys(_ keys: [String], of view: ResolvedView, rule: InferenceRule, file: String?, reason: String) {
        var byKey: [String: [Int]] = [:]
        for (index, key) in keys.enumerated() { byKey[key, default: []].append(index) }
        for (key, indices) in byKey.sorted(by: { $0.key < $1.key }) where indices.count > 1 {
            let names = indices.map { "'\(view.entities[$0].entity.name)'" }.joined(separator: " and ")
            let second = view.entities[indices[1]].entity
            add(rule.change(.duplicateKey, entity: second.name,
                            detail: "entities \(names) share the key '\(key)' (renaming identifier or name): Core Data refuses to infer the mapping "
                                + "(134190 \"\(reason)\"; the app fails with 134140)",
                            verdict: .blocksInference, location: at(file, second.line, second.column)))
        }
    }

    // MARK: Entities

    mutating func compareEntities(_ s: ResolvedEntityView, _ d: ResolvedEntityView, inMerge: Bool) {
        let sName = s.entity.name
        let dName = d.entity.name
        let here = at(destinationFile, d.entity.line, d.entity.column)
        if sName != dName {
            add(InferenceRules.entityMatching.change(
                .entityRenamed, entity: dName,
                detail: "entity '\(sName)' is renamed to '\(dName)' (renaming identifier '\(Self.entityKey(d))')", verdict: .inferable, location: here))
        }
        let sParent = s.entity.parentEntity.flatMap { source.entity($0) }.map { $0.entity.name }
        let dParent = d.entity.parentEntity.flatMap { destination.entity($0) }.map { $0.entity.name }
        let parentGoesTo: String? = if let sParent { entityLineage[sParent] } else { nil }
        if parentGoesTo != dParent || (sParent == nil) != (dParent == nil) {
            let from = sParent.map { "'\($0)'" } ?? "none"
            let to = dParent.map { "'\($0)'" } ?? "none"
            add(InferenceRules.hierarchyChange.change(
                .parentChanged, entity: dName,
                detail: "entity '\(dName)' changes parent from \(from) to \(to): inferred (the builder does not check hierarchies), "
                    + "but how its rows are moved is unverified",
                verdict: .inferable, code: inMerge ? .some(nil) : nil, location: here))
        }
        // Equal content: the same name, flags, constraints, indexes and properties; only the
        // parent's and the destinations' fates in this step are left to check.
        let same = s.content != nil && s.content == d.content
        if !same {
            compareEntityFields(s, d, here: here)
        }
        let propertyMappings = same && destinationsKeepTheirNames(d) ? unchangedPropertyMappings(s, d) : compareProperties(s, d)
        // Equal content means equal hash inputs (the content holds every input).
        let copy = sName == dName && (same || source.hashInputs[sName] == destination.hashInputs[dName])
        entityMappings.append(InferredEntityMapping(name: "\(sName)To\(dName)", kind: copy ? .copy : .transform,
                                                    source: sName, destination: dName, propertyMappings: propertyMappings))
    }

    /// The entity-level comparisons after the name and the parent: abstractness, hash modifier,
    /// uniqueness constraints, indexes.
    mutating func compareEntityFields(_ s: ResolvedEntityView, _ d: ResolvedEntityView, here: SourceLocation?) {
        let dName = d.entity.name
        if s.entity.isAbstract != d.entity.isAbstract {
            add(InferenceRules.hierarchyChange.change(
                .abstractChanged, entity: dName,
                detail: "entity '\(dName)' becomes \(d.entity.isAbstract ? "abstract" : "concrete"): inferred (the builder ignores the flag), "
                    + "but what happens to \(d.entity.isAbstract ? "its own rows" : "the rows") is unverified",
                verdict: .inferable, location: here))
        }
        if (s.entity.versionHashModifier ?? "") != (d.entity.versionHashModifier ?? "") {
            add(InferenceRules.versionHashModifier.change(
                .hashModifierChanged, entity: dName, detail: "entity '\(dName)' changes its version hash modifier, forcing a migration",
                verdict: .inferable, location: here))
        }
        let oldConstraints = Set(s.entity.uniquenessConstraints.map { $0.joined(separator: ",") }.filter { !$0.isEmpty })
        let newConstraints = Set(d.entity.uniquenessConstraints.map { $0.joined(separator: ",") }.filter { !$0.isEmpty })
        if oldConstraints != newConstraints {
            let added = newConstraints.subtracting(oldConstraints).sorted()
            let detail = added.isEmpty
                ? "entity '\(dName)' removes uniqueness constraints (a hash input: the table is rebuilt)"
                : "entity '\(dName)' adds a uniqueness constraint on " + added.map { "(\($0.replacingOccurrences(of: ",", with: ", ")))" }.joined(separator: " and ")
                    + ": a hash input, so the table is rebuilt, and its unique index fails the migration on stores where rows already share "
                    + "the values (a dry run counts them)"
            add(InferenceRules.uniquenessConstraintChange.change(.uniquenessChanged, entity: dName, detail: detail, verdict: .inferable,
                                                                 code: added.isEmpty ? .some(nil) : nil, location: here))
        }
        if Set(s.entity.fetchIndexes.map(\.name)) != Set(d.entity.fetchIndexes.map(\.name))
            || Set(s.entity.compoundIndexes) != Set(d.entity.compoundIndexes) {
            add(InferenceRules.notHashed.change(.indexChanged, entity: dName, detail: "entity '\(dName)' changes its indexes (not a hash input)",
                                                verdict: .noMigration, code: .some(nil), location: here))
        }
    }

    /// True when every stored relationship of `entity` points to an entity whose rows stay under
    /// the same name in this step (else comparing relationships reports the move).
    mutating func destinationsKeepTheirNames(_ entity: ResolvedEntityView) -> Bool {
        for relationship in entity.relationships where !relationship.isTransient {
            if let destination = relationship.destinationEntity, entityLineage[destination] != destination { return false }
        }
        return true
    }

    /// What `compareProperties` gives for two entities of equal content whose relationships'
    /// destinations keep their names: every stored property paired with itself, no change, no
    /// check.
    mutating func unchangedPropertyMappings(_ s: ResolvedEntityView, _ d: ResolvedEntityView) -> [InferredEntityMapping.PropertyMapping] {
        let sName = s.entity.name
        let dName = d.entity.name
        guard let content = d.content else { return [] }
        for mapping in content.unchangedMappings { propertyLineage[PropertyKey(sName, mapping.destination)] = PropertyKey(dName, mapping.destination) }
        return content.unchangedMappings
    }

    /// An entity's stored attributes as `name:type`, for likely renames.
    static func attributeSignatures(_ entity: ResolvedEntityView) -> Set<String> {
        Set(entity.attributes.filter { !$0.isTransient }.map { "\($0.name):\($0.type.xmlValue)" })
    }

    /// The position (in `added`: each added entity's `attributeSignatures`) of the added entity
    /// that most likely renames `gone`.
    func likelyEntityTwin(of gone: ResolvedEntityView, among added: [Set<String>]) -> Int? {
        let goneAttributes = Self.attributeSignatures(gone)
        var best: (Double, Int)?
        for (position, attributes) in added.enumerated() {
            let union = goneAttributes.union(attributes)
            let similarity = union.isEmpty ? (added.count == 1 ? 1 : 0) : Double(goneAttributes.intersection(attributes).count) / Double(union.count)
            if similarity >= 0.5, similarity > (best?.0 ?? 0) { best = (similarity, position) }
        }
        return best?.1
    }

    /// Matched entities from separate source hierarchies that share a destination root: one
    /// finding per merge. Returns the destination entities involved (their own parent changes
    /// raise no second finding).
    mutating func checkHierarchyMerges(_ matches: [(Int, Int)]) -> Set<String> {
        // Every destination entity alone in its hierarchy, and matched at most once: no merge.
        if destination.isFlat { return [] }
        var sourceRootsByDestinationRoot: [String: Set<String>] = [:]
        var members: [String: [String]] = [:]
        for (s, d) in matches {
            sourceRootsByDestinationRoot[destination.entities[d].root, default: []].insert(source.entities[s].root)
            members[destination.entities[d].root, default: []].append(destination.entities[d].entity.name)
        }
        var involved: Set<String> = []
        for (root, sourceRoots) in sourceRootsByDestinationRoot.sorted(by: { $0.key < $1.key }) where sourceRoots.count > 1 {
            let list = sourceRoots.sorted().map { "'\($0)'" }.joined(separator: ", ")
            involved.formUnion(members[root] ?? [])
            add(InferenceRules.hierarchyChange.change(
                .hierarchyMerged, entity: root,
                detail: "entities from separate hierarchies (roots \(list)) now share the root '\(root)': the builder infers it, "
                    + "but Apple documents merges as unsupported and the outcome is unverified",
                verdict: .inferable, location: at(destinationFile, destination.entity(root)?.entity.line, destination.entity(root)?.entity.column)))
        }
        return involved
    }

    // MARK: Properties

    /// The stored properties the builder sees: non-transient attributes (composites as their
    /// elements) and relationships, inherited ones included.
    func storedProperties(_ entity: ResolvedEntityView, in view: ResolvedView) -> [Property] {
        var result: [Property] = []
        for attribute in entity.attributes where !attribute.isTransient {
            if attribute.type == .composite {
                result += view.elements(of: attribute).filter { !$0.isTransient }.map(Property.attribute)
            } else {
                result.append(.attribute(attribute))
            }
        }
        for relationship in entity.relationships where !relationship.isTransient { result.append(.relationship(relationship)) }
        return result
    }

    func transientKeys(_ entity: ResolvedEntityView) -> Set<String> {
        var keys: Set<String> = []
        for a in entity.attributes where a.isTransient { keys.insert(InferenceRules.key(name: a.name, renamingIdentifier: a.renamingIdentifier)) }
        for r in entity.relationships where r.isTransient { keys.insert(InferenceRules.key(name: r.name, renamingIdentifier: r.renamingIdentifier)) }
        return keys
    }

    mutating func compareProperties(_ s: ResolvedEntityView, _ d: ResolvedEntityView) -> [InferredEntityMapping.PropertyMapping] {
        let sName = s.entity.name
        let dName = d.entity.name
        var mappings: [InferredEntityMapping.PropertyMapping] = []
        let sourceProperties = storedProperties(s, in: source)
        let destinationProperties = storedProperties(d, in: destination)
        // Duplicate source keys fail the builder; duplicate destination keys take the same source.
        var sourceByKey: [String: Int] = [:]
        var duplicates: [String: [Int]] = [:]
        for (index, property) in sourceProperties.enumerated() {
            if let first = sourceByKey[property.key] {
                duplicates[property.key, default: [first]].append(index)
            } else {
                sourceByKey[property.key] = index
            }
        }
        for (key, indices) in duplicates.sorted(by: { $0.key < $1.key }) {
            let names = indices.map { "'\(sourceProperties[$0].name)'" }.joined(separator: " and ")
            let second = sourceProperties[indices[1]]
            add(InferenceRules.duplicateSourcePropertyKey.change(
                .duplicateKey, entity: dName, property: second.name,
                detail: "properties \(names) of '\(sName)' share the key '\(key)' (renaming identifier or name): Core Data refuses to infer "
                    + "the mapping (134190 \"Each property must have a unique renaming identifier\"; the app fails with 134140)",
                verdict: .blocksInference, location: at(sourceFile, second.line, second.column)))
        }
        var usedSources: Set<Int> = []
        var unmatchedDestinations: [Int] = []
        for (di, dp) in destinationProperties.enumerated() {
            guard let si = sourceByKey[dp.key] else {
                unmatchedDestinations.append(di)
                continue
            }
            let sp = sourceProperties[si]
            let firstUse = usedSources.insert(si).inserted
            switch (sp, dp) {
            case let (.attribute(a), .attribute(b)) where a.isDerived == b.isDerived:
                compareAttributes(a, b, sourceEntity: sName, entity: dName)
                if firstUse { propertyLineage[PropertyKey(sName, a.name)] = PropertyKey(dName, b.name) }
                mappings.append(.attribute(b.name, from: a.name))
            case let (.relationship(a), .relationship(b)):
                compareRelationships(a, b, sourceEntity: sName, entity: dName)
                if firstUse { propertyLineage[PropertyKey(sName, a.name)] = PropertyKey(dName, b.name) }
                mappings.append(.relationship(b.name, from: a.name))
            default:
                add(InferenceRules.propertyKindMismatch.change(
                    .propertyKindChanged, entity: dName, property: dp.name,
                    detail: "'\(sName).\(sp.name)' changes from \(sp.kind) to \(dp.kind): Core Data drops and re-adds it, and the stored values are deleted",
                    verdict: .dataLoss, location: at(destinationFile, dp.line, dp.column)))
                newPropertyValidation(dp, sourceEntity: sName, entity: dName)
                mappings.append(.init(destination: dp.name, expression: nil))
            }
        }
        let unmatchedSources = sourceProperties.indices.filter { !usedSources.contains($0) }
        let destinationTransient = transientKeys(d)
        let sourceTransient = transientKeys(s)
        // Removals explained by one cause (transient, replaced by an entity, likely rename) raise that finding only.
        var explained: Set<Int> = []
        for si in unmatchedSources {
            let sp = sourceProperties[si]
            if destinationTransient.contains(sp.key) {
                explained.insert(si)
                add(InferenceRules.persistentTransient.change(
                    .transientChanged, entity: dName, property: sp.name,
                    detail: "\(sp.kind) '\(sName).\(sp.name)' becomes transient: its column is dropped and the stored values are deleted",
                    verdict: .dataLoss, location: at(destinationFile, sp.line, sp.column)))
                continue
            }
            guard case .attribute(let a) = sp else { continue }
            let lowered = a.name.lowercased()
            let becameRelationship = unmatchedDestinations.contains { di in
                if case .relationship(let r) = destinationProperties[di] { return r.name.lowercased() == lowered }
                return false
            }
            if becameRelationship || (destination.lowercasedNames.contains(lowered) && !source.lowercasedNames.contains(lowered)) {
                explained.insert(si)
                add(InferenceRules.propertyKindMismatch.change(
                    .propertyKindChanged, entity: dName, property: a.name,
                    detail: "attribute '\(sName).\(a.name)' is replaced by \(becameRelationship ? "a relationship" : "an entity") of the same name: "
                        + "Core Data drops and re-adds it, and its values are deleted",
                    verdict: .dataLoss, location: at(sourceFile, a.line, a.column)))
            }
        }
        var paired: Set<Int> = []
        let remaining = unmatchedSources.filter { !explained.contains($0) }
        for si in remaining {
            let candidates = unmatchedDestinations.filter { !paired.contains($0) && !sourceTransient.contains(destinationProperties[$0].key) }
            guard let di = likelyPropertyTwin(sourceProperties[si], among: candidates.map { ($0, destinationProperties[$0]) },
                                              sources: remaining.map { sourceProperties[$0] }) else { continue }
            paired.insert(di)
            explained.insert(si)
            let gone = sourceProperties[si]
            let new = destinationProperties[di]
            let keyed = gone.key == gone.name ? "" : " (keyed by its renaming identifier '\(gone.key)')"
            let detail = new.name == gone.name
                ? "'\(dName).\(new.name)' is keyed by its renaming identifier '\(gone.key)' in the source and by '\(new.key)' here: Core Data does "
                    + "not pair them, so it drops the values and adds an empty '\(new.name)'; give it renaming identifier '\(gone.key)' to keep the data"
                : "'\(dName).\(new.name)' looks like a rename of '\(sName).\(gone.name)'\(keyed); add renaming identifier '\(gone.key)' to "
                    + "'\(new.name)' to keep the data: without it Core Data drops '\(gone.name)' and adds '\(new.name)', deleting the values"
            var rename = InferenceRules.likelyPropertyRename.change(
                .likelyPropertyRename, entity: dName, property: new.name,
                detail: detail,
                verdict: .dataLoss, location: at(destinationFile, new.line, new.column))
            rename.sourceProperty = gone.name
            add(rename)
        }
        for si in remaining {
            let property = sourceProperties[si]
            let quiet = explained.contains(si)
            let moved: Bool
            if case .attribute(let a) = property, s.entity.isAbstract { moved = movedDown(a.name, from: s.entity.name) } else { moved = false }
            switch property {
            case .attribute(let a) where moved:
                // An abstract entity has no rows of its own: its values live in its subentities, which keep the attribute.
                add(InferenceRules.removedProperty.change(
                    .attributeRemoved, entity: dName, property: a.name,
                    detail: "attribute '\(sName).\(a.name)' moves down into the subentities of abstract '\(sName)', which keep its values",
                    verdict: .inferable, code: .some(nil), location: at(sourceFile, a.line, a.column)))
            case .attribute(let a):
                add(InferenceRules.removedProperty.change(
                    .attributeRemoved, entity: dName, property: a.name,
                    detail: "attribute '\(sName).\(a.name)' is removed; its values are deleted",
                    verdict: .dataLoss, code: quiet ? .some(nil) : nil, location: at(sourceFile, a.line, a.column)))
            case .relationship(let r):
                add(InferenceRules.removedProperty.change(
                    .relationshipRemoved, entity: dName, property: r.name,
                    detail: "relationship '\(sName).\(r.name)' is removed; its links are deleted",
                    verdict: .inferable, code: .some(nil), location: at(sourceFile, r.line, r.column)))
            }
        }
        for di in unmatchedDestinations {
            let property = destinationProperties[di]
            if sourceTransient.contains(property.key) {
                add(InferenceRules.persistentTransient.change(
                    .transientChanged, entity: dName, property: property.name,
                    detail: "\(property.kind) '\(dName).\(property.name)' becomes stored: an empty column is added", verdict: .inferable,
                    code: .some(nil), location: at(destinationFile, property.line, property.column)))
            } else {
                let description: String
                switch property {
                case .attribute(let a):
                    let why = a.isOptional ? "optional" : a.isDerived ? "derived" : a.hasDefaultValue ? "with a default value" : "mandatory, no default"
                    description = "attribute '\(dName).\(a.name)' is added (\(why))"
                case .relationship(let r):
                    description = "relationship '\(dName).\(r.name)' is added" + (r.isMandatory ? " (mandatory)" : "")
                }
                add(InferenceRules.newMandatoryProperty.change(
                    property.isAttribute ? .attributeAdded : .relationshipAdded, entity: dName, property: property.name,
                    detail: description, verdict: .inferable, location: at(destinationFile, property.line, property.column)))
            }
            newPropertyValidation(property, sourceEntity: sName, entity: dName)
            mappings.append(.init(destination: property.name, expression: nil))
        }
        return mappings.sorted { $0.destination < $1.destination }
    }

    /// A new property of a matched entity: mandatory without a default → "could fail validation".
    mutating func newPropertyValidation(_ property: Property, sourceEntity: String, entity: String) {
        switch property {
        case .attribute(let a) where !a.isOptional && !a.hasDefaultValue && !a.isDerived:
            validation.append(ValidationCheck(entity: entity, property: a.name, kind: .attribute, reason: .newMandatory,
                                              sourceEntity: sourceEntity, sourceProperty: nil))
        case .relationship(let r) where r.isMandatory:
            validation.append(ValidationCheck(entity: entity, property: r.name, kind: .relationship, reason: .newMandatory,
                                              sourceEntity: sourceEntity, sourceProperty: nil, toMany: r.isToMany))
        default:
            break
        }
    }

    /// The added property that most likely renames `gone`: the only one of the same kind and
    /// type when `gone` is the only removed one of that type, else one with a close name.
    func likelyPropertyTwin(_ gone: Property, among candidates: [(Int, Property)], sources: [Property]) -> Int? {
        let sameType = candidates.filter { $0.1.signature == gone.signature }
        guard !sameType.isEmpty else { return nil }
        let removedOfType = sources.filter { $0.signature == gone.signature }.count
        if removedOfType == 1, sameType.count == 1 { return sameType[0].0 }
        let goneName = Array(gone.name.lowercased().unicodeScalars)
        let scored = sameType.map { ($0.0, NameSuggestions.editDistance(goneName, Array($0.1.name.lowercased().unicodeScalars))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, goneName.count / 3) else { return nil }
        return best.0
    }

    mutating func compareAttributes(_ a: Attribute, _ b: Attribute, sourceEntity: String, entity: String) {
        let here = at(destinationFile, b.line, b.column)
        let label = "'\(entity).\(b.name)'"
        compareNames(.attributeRenamed, "attribute", a.name, b.name, renamingIdentifier: b.renamingIdentifier,
                     sourceEntity: sourceEntity, entity: entity, location: here)
        let transformation = InferenceRules.allowsTypeTransformation(b)
        if transformation {
            if let refusal = InferenceRules.transformationRefusal(a, b) {
                add(InferenceRules.typeTransformation.change(
                    .attributeTypeChanged, entity: entity, property: b.name,
                    detail: "attribute \(label) (\(a.type.xmlValue) → \(b.type.xmlValue)) has \(InferenceRules.transformationKeyName) in its userInfo: "
                        + "Core Data refuses to infer the mapping (134190 \"\(refusal)\"); remove the key unless the step turns Transformable into Binary or back",
                    verdict: .blocksInference, location: here))
            } else {
                add(InferenceRules.typeTransformation.change(
                    .attributeTypeChanged, entity: entity, property: b.name,
                    detail: "attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue) (\(InferenceRules.transformationKeyName))",
                    verdict: .inferable, code: .some(nil), location: here))
            }
        } else if a.type != b.type {
            // Converted in place, or refused by the builder: one finding either way.
            let converts = InferenceRules.converts(a.type, b.type)
            add(InferenceRules.attributeTypeConversion.change(
                .attributeTypeChanged, entity: entity, property: b.name,
                detail: "attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue)"
                    + (converts ? " (converted)" : ": Core Data refuses to infer the mapping "
                        + "(134190 \"Source and destination attribute types are incompatible\"; the app fails with 134140)"),
                verdict: converts ? .inferable : .blocksInference, code: converts ? .some(nil) : nil, location: here))
        }
        if !transformation, a.allowsExternalBinaryDataStorage != b.allowsExternalBinaryDataStorage {
            // Into external storage is inferred; out of it the builder refuses.
            let into = b.allowsExternalBinaryDataStorage
            add(InferenceRules.externalStorage.change(
                .externalStorageChanged, entity: entity, property: b.name,
                detail: into ? "attribute \(label) moves to external storage"
                    : "attribute \(label) stops using external storage: Core Data refuses to infer the mapping (134190 \"Unable to use "
                        + "inferred mapping to move external reference into store.\"; the app fails with 134140)",
                verdict: into ? .inferable : .blocksInference, code: into ? .some(nil) : nil, location: here))
        }
        if a.isOptional != b.isOptional {
            if b.isOptional {
                add(InferenceRules.optionalToMandatory.change(.optionalityChanged, entity: entity, property: b.name,
                                                              detail: "attribute \(label) becomes optional", verdict: .inferable, location: here))
            } else if b.hasDefaultValue || b.isDerived {
                add(InferenceRules.optionalToMandatory.change(
                    .optionalityChanged, entity: entity, property: b.name,
                    detail: "attribute \(label) becomes mandatory with a default value (missing values take it)", verdict: .inferable, location: here))
            } else {
                add(InferenceRules.optionalToMandatory.change(
                    .optionalityChanged, entity: entity, property: b.name,
                    detail: "attribute \(label) becomes mandatory without a default value", verdict: .inferable, location: here))
                validation.append(ValidationCheck(entity: entity, property: b.name, kind: .attribute, reason: .optionalToMandatory,
                                                  sourceEntity: sourceEntity, sourceProperty: a.name))
            }
        }
        compareModifiers("attribute", a.versionHashModifier, b.versionHashModifier, entity: entity, name: b.name, location: here)
        if a.defaultValueString != b.defaultValueString || a.defaultDateTimeInterval != b.defaultDateTimeInterval {
            add(InferenceRules.notHashed.change(.defaultValueChanged, entity: entity, property: b.name,
                                                detail: "attribute \(label) changes its default value (not a hash input)",
                                                verdict: .noMigration, code: .some(nil), location: here))
        }
        if a.type == .transformable, b.type == .transformable,
           (a.valueTransformerName ?? "") != (b.valueTransformerName ?? "") || (a.customClassName ?? "") != (b.customClassName ?? "") {
            // Class names and transformers are not version-hash inputs: no migration converts the
            // stored bytes, which the new transformer (or class) must still read.
            add(InferenceRules.notHashed.change(
                .transformerChanged, entity: entity, property: b.name,
                detail: "transformable attribute \(label) changes its value transformer or class "
                    + "(\(a.valueTransformerName ?? "default") / \(a.customClassName ?? "none") → \(b.valueTransformerName ?? "default") / \(b.customClassName ?? "none")): "
                    + "no migration converts stored values, so the new one must decode what the old one wrote",
                verdict: .noMigration, location: here))
        }
    }

    mutating func compareRelationships(_ a: Relationship, _ b: Relationship, sourceEntity: String, entity: String) {
        let here = at(destinationFile, b.line, b.column)
        let label = "'\(entity).\(b.name)'"
        compareNames(.relationshipRenamed, "relationship", a.name, b.name, renamingIdentifier: b.renamingIdentifier,
                     sourceEntity: sourceEntity, entity: entity, location: here)
        let surviving: String? = if let old = a.destinationEntity { entityLineage[old] } else { nil }
        if surviving != b.destinationEntity {
            let moved = "relationship \(label) now points to '\(b.destinationEntity ?? "?")' instead of '\(a.destinationEntity ?? "?")'"
            if surviving == nil, a.destinationEntity == b.destinationEntity {
                // The destination entity is dropped and re-added (reported with the entity): its links go with it.
            } else if surviving == nil {
                // The old destination's rows are deleted (reported with the entity): no link survives.
                add(InferenceRules.relationshipDestinationChange.change(
                    .destinationChanged, entity: entity, property: b.name,
                    detail: moved + " ('\(a.destinationEntity ?? "?")' is removed, so its links are dropped)",
                    verdict: .inferable, code: .some(nil), basis: .coreDataBuilder, location: here))
            } else {
                add(InferenceRules.relationshipDestinationChange.change(
                    .destinationChanged, entity: entity, property: b.name,
                    detail: moved + ": the builder does not compare destinations and infers the step, but what the migration does with the "
                        + "existing links is unverified",
                    verdict: .inferable, location: here))
            }
        }
        if a.isToMany != b.isToMany {
            if b.isToMany {
                add(InferenceRules.relationshipShapeChange.change(.cardinalityChanged, entity: entity, property: b.name,
                                                                  detail: "relationship \(label) changes from to-one to to-many",
                                                                  verdict: .inferable, location: here))
            } else {
                add(InferenceRules.toManyToToOne.change(
                    .cardinalityChanged, entity: entity, property: b.name,
                    detail: "relationship \(label) changes from to-many to to-one: Core Data refuses to infer the mapping (134190 \"Can not map "
                        + "from a to-many to a to-one relationship\"; the app fails with 134140)",
                    verdict: .blocksInference, location: here))
            }
        } else if a.isToMany, a.isOrdered != b.isOrdered {
            add(InferenceRules.relationshipShapeChange.change(.orderingChanged, entity: entity, property: b.name,
                                                              detail: "relationship \(label) becomes \(b.isOrdered ? "ordered" : "unordered")",
                                                              verdict: .inferable, location: here))
        }
        if a.isOptional != b.isOptional || a.minCount != b.minCount || (a.hashedMaxCount != b.hashedMaxCount && a.isToMany == b.isToMany) {
            if b.isMandatory && !a.isMandatory {
                add(InferenceRules.optionalToMandatory.change(
                    .countChanged, entity: entity, property: b.name, detail: "relationship \(label) becomes mandatory", verdict: .inferable, location: here))
                validation.append(ValidationCheck(entity: entity, property: b.name, kind: .relationship, reason: .optionalToMandatory,
                                                  sourceEntity: sourceEntity, sourceProperty: a.name, toMany: b.isToMany))
            } else {
                add(InferenceRules.relationshipShapeChange.change(
                    .countChanged, entity: entity, property: b.name, detail: "relationship \(label) changes its optionality or count limits",
                    verdict: .inferable, location: here))
            }
        }
        if (a.inverseName ?? "") != (b.inverseName ?? "") {
            add(InferenceRules.relationshipShapeChange.change(
                .inverseChanged, entity: entity, property: b.name,
                detail: "relationship \(label) changes its inverse from '\(a.inverseName ?? "none")' to '\(b.inverseName ?? "none")'",
                verdict: .inferable, location: here))
        }
        compareModifiers("relationship", a.versionHashModifier, b.versionHashModifier, entity: entity, name: b.name, location: here)
    }

    /// For versions with equal hashes: entities and properties that keep their name but change
    /// their key (renaming identifier). No migration runs now, but the next inferred step keys
    /// them by the new identifier (Wire 2.46.0 → 2.47.0 → 2.48.0).
    func identifierNotes() -> [ModelChange] {
        var notes: [ModelChange] = []
        func note(_ what: String, _ entity: String, _ property: String?, _ old: String?, _ new: String?, _ line: Int?, _ column: Int?) {
            let from = old.flatMap { $0.isEmpty ? nil : "'\($0)'" } ?? "none"
            let to = new.flatMap { $0.isEmpty ? nil : "'\($0)'" } ?? "none"
            notes.append(InferenceRules.notHashed.change(
                .renamingIdentifierChanged, entity: entity, property: property,
                detail: "\(what) changes its renaming identifier from \(from) to \(to): not a hash input, so no migration runs now, "
                    + "but the next inferred step pairs it by its new key",
                verdict: .noMigration, code: .some(nil), location: at(destinationFile, line, column)))
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

    /// True when every concrete entity below `entity` in the source keeps a stored attribute
    /// `name` in the entity its rows go to (so removing it from `entity` moves it down).
    func movedDown(_ name: String, from entity: String) -> Bool {
        let below = source.entities.filter { candidate in
            !candidate.entity.isAbstract && candidate.entity.name != entity
                && source.isKind(candidate.entity.name, of: entity)
        }
        return !below.isEmpty && below.allSatisfy { child in
            guard let mapped = entityLineage[child.entity.name], let kept = destination.entity(mapped) else { return false }
            return kept.attributes.contains { $0.name == name && !$0.isTransient }
        }
    }
}

extension Property {
    var isAttribute: Bool {
        if case .attribute = self { return true }
        return false
    }
}

