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
        let files = StepFiles(source: sourceFile, destination: destinationFile)
        var engine = Engine(source: source, destination: destination, files: files)
        engine.run()
        guard source.hashInputs == destination.hashInputs else {
            return InferredMapping(entityMappings: engine.entityMappings, changes: engine.changes,
                                   entityLineage: engine.entityLineage, propertyLineage: engine.propertyLineage,
                                   validation: engine.validation.sorted(), needsMigration: true)
        }
        // Equal hashes (§1.7): the store opens as it is. Every row and value stays where it is,
        // whatever the builder would have paired; only what lies outside the hash is reported.
        let identity = destination.identityLineage { source.byName[$0] != nil }
        let changes = engine.changes.filter { $0.verdict == .noMigration }
            + InferenceRules.identifierNotes(source: source, destination: destination, files: files)
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
            names.reserveCapacity(inherited.0.count + inherited.1.count + own.0.count + own.1.count)
            let attributes = Self.firstOfEachName(inherited.0, taken: &names, name: \.name)
            let relationships = Self.firstOfEachName(inherited.1, taken: &names, name: \.name)
            let ownAttributes = Self.firstOfEachName(own.0, taken: &names, name: \.name)
            let ownRelationships = Self.firstOfEachName(own.1, taken: &names, name: \.name)
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
        entityKeys = views.map(InferenceRules.entityKey)
        for (index, key) in entityKeys.enumerated() {
            if firstByKey[key] == nil { firstByKey[key] = index } else { hasDuplicateKeys = true }
        }
        isFlat = byName.count == views.count && views.allSatisfy { $0.root == $0.entity.name }
    }

    func entity(_ name: String) -> ResolvedEntityView? { byName[name].map { entities[$0] } }

    /// The properties whose name is not in `taken` nor earlier in the list, adding their names to
    /// `taken`; the list itself when it keeps them all (the usual case: nothing is copied).
    private static func firstOfEachName<Property>(_ properties: [Property], taken: inout Set<String>, name: (Property) -> String) -> [Property] {
        var kept: [Property]?
        for (index, property) in properties.enumerated() {
            if taken.insert(name(property)).inserted {
                kept?.append(property)
            } else if kept == nil {
                kept = Array(properties[..<index])
            }
        }
        return kept ?? properties
    }
}

// MARK: - Engine

/// Pairs entities and properties as the builder does and runs the rules on each pair, in the
/// order the builder meets them. The rules (`InferenceRules`, one file each under `Rules/`) read
/// the pairs; the engine keeps only what pairing decides: lineage and entity mappings.
private struct Engine {
    let source: ResolvedView
    let destination: ResolvedView
    let files: StepFiles

    var changes: [ModelChange] = []
    var entityMappings: [InferredEntityMapping] = []
    var entityLineage: [String: String] = [:]
    /// Where each surviving source property goes (`InferredMapping.propertyLineage`).
    var propertyLineage: [PropertyKey: PropertyKey] = [:]
    var validation: [ValidationCheck] = []

    init(source: ResolvedView, destination: ResolvedView, files: StepFiles) {
        self.source = source
        self.destination = destination
        self.files = files
    }

    mutating func add(_ findings: InferenceFindings) {
        changes += findings.changes
        validation += findings.validation
    }

    mutating func add(_ change: ModelChange?) {
        if let change { changes.append(change) }
    }

    mutating func run() {
        entityLineage.reserveCapacity(destination.entities.count)
        // 1. Keys on each side (each view keeps its own); duplicates make the builder fail.
        if source.hasDuplicateKeys { add(InferenceRules.duplicateSourceEntityKeys(source, files: files)) }
        if destination.hasDuplicateKeys { add(InferenceRules.duplicateDestinationEntityKeys(destination, files: files)) }
        // 2. Exact key equality.
        let sourceByKey = source.firstByKey
        var matches: [(Int, Int)] = []
        var matchedSources: Set<Int> = []
        for (index, key) in destination.entityKeys.enumerated() {
            guard let s = sourceByKey[key], matchedSources.insert(s).inserted else { continue }
            matches.append((s, index))
            // Known for every entity before any is compared: a relationship's destination is
            // judged by where that entity's rows go, whichever entity is compared first.
            entityLineage[source.entities[s].entity.name] = destination.entities[index].entity.name
        }
        let matchedDestinations = Set(matches.map(\.1))
        // 3. Hierarchy merges, then each matched pair.
        let merges = InferenceRules.hierarchyMerges(matches, source: source, destination: destination, files: files)
        add(merges.findings)
        for (s, d) in matches {
            compareEntities(source.entities[s], destination.entities[d], inMerge: merges.involved.contains(destination.entities[d].entity.name))
        }
        // 4. Removed and added entities, and likely renames among them.
        let removed = source.entities.indices.filter { !matchedSources.contains($0) }
        let added = destination.entities.indices.filter { !matchedDestinations.contains($0) }
        // Each added entity's stored attributes once, for every removed one to be compared with.
        let addedAttributes = removed.isEmpty ? [] : added.map { InferenceRules.attributeSignatures(destination.entities[$0]) }
        for goneIndex in removed {
            let gone = source.entities[goneIndex]
            let twinIndex = InferenceRules.likelyEntityTwin(of: gone, among: addedAttributes)
            if let twinIndex {
                add(InferenceRules.suspectedEntityRename(gone, key: source.entityKeys[goneIndex], twin: destination.entities[added[twinIndex]],
                                                      twinKey: destination.entityKeys[added[twinIndex]], files: files))
            }
            add(InferenceRules.entityRemoved(gone, explained: twinIndex != nil, files: files))
            entityMappings.append(InferredEntityMapping(name: "Remove\(gone.entity.name)", kind: .remove,
                                                        source: gone.entity.name, destination: nil, propertyMappings: []))
        }
        for new in added.map({ destination.entities[$0] }) {
            add(InferenceRules.entityAdded(new, files: files))
            entityMappings.append(InferredEntityMapping(name: "Add\(new.entity.name)", kind: .add, source: nil,
                                                        destination: new.entity.name, propertyMappings: []))
        }
        entityMappings.sort { ($0.destination ?? $0.source ?? "", $0.name) < ($1.destination ?? $1.source ?? "", $1.name) }
    }

    // MARK: Entities

    mutating func compareEntities(_ s: ResolvedEntityView, _ d: ResolvedEntityView, inMerge: Bool) {
        let sName = s.entity.name
        let dName = d.entity.name
        let sParent = s.entity.parentEntity.flatMap { source.entity($0) }.map { $0.entity.name }
        let dParent = d.entity.parentEntity.flatMap { destination.entity($0) }.map { $0.entity.name }
        let pair = EntityPair(source: s, destination: d, sourceParent: sParent, destinationParent: dParent,
                              parentGoesTo: sParent.flatMap { entityLineage[$0] }, inMerge: inMerge,
                              location: files.destination(d.entity.line, d.entity.column))
        add(InferenceRules.renamedEntity(pair))
        add(InferenceRules.parentChange(pair))
        // Equal content: the same name, flags, constraints, indexes and properties; only the
        // parent's and the destinations' fates in this step are left to check.
        let same = s.content != nil && s.content == d.content
        if !same {
            add(InferenceRules.abstractChange(pair))
            add(InferenceRules.entityHashModifier(pair))
            add(InferenceRules.uniquenessConstraints(pair))
            add(InferenceRules.indexes(pair))
        }
        let propertyMappings = same && destinationsKeepTheirNames(d) ? unchangedPropertyMappings(s, d) : compareProperties(s, d)
        // Equal content means equal hash inputs (the content holds every input).
        let copy = sName == dName && (same || source.hashInputs[sName] == destination.hashInputs[dName])
        entityMappings.append(InferredEntityMapping(name: "\(sName)To\(dName)", kind: copy ? .copy : .transform,
                                                    source: sName, destination: dName, propertyMappings: propertyMappings))
    }

    /// True when every stored relationship of `entity` points to an entity whose rows stay under
    /// the same name in this step (else comparing relationships reports the move).
    func destinationsKeepTheirNames(_ entity: ResolvedEntityView) -> Bool {
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

    // MARK: Properties

    /// The stored properties the builder sees: non-transient attributes (composites as their
    /// elements) and relationships, inherited ones included.
    func storedProperties(_ entity: ResolvedEntityView, in view: ResolvedView) -> [StoredProperty] {
        var result: [StoredProperty] = []
        for attribute in entity.attributes where !attribute.isTransient {
            if attribute.type == .composite {
                result += view.elements(of: attribute).filter { !$0.isTransient }.map(StoredProperty.attribute)
            } else {
                result.append(.attribute(attribute))
            }
        }
        for relationship in entity.relationships where !relationship.isTransient { result.append(.relationship(relationship)) }
        return result
    }

    /// The transient properties of `entity`, by key (the first of each key).
    func transients(_ entity: ResolvedEntityView) -> [String: StoredProperty] {
        let properties = entity.attributes.filter(\.isTransient).map(StoredProperty.attribute)
            + entity.relationships.filter(\.isTransient).map(StoredProperty.relationship)
        return Dictionary(properties.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func compareProperties(_ s: ResolvedEntityView, _ d: ResolvedEntityView) -> [InferredEntityMapping.PropertyMapping] {
        let sName = s.entity.name
        let dName = d.entity.name
        var mappings: [InferredEntityMapping.PropertyMapping] = []
        let sourceProperties = storedProperties(s, in: source)
        let destinationProperties = storedProperties(d, in: destination)
        // Duplicate source keys fail the builder (the first source of a key is the one paired);
        // duplicate destination keys take the same source.
        var sourceByKey: [String: Int] = [:]
        var duplicateKeys = false
        for (index, property) in sourceProperties.enumerated() {
            if sourceByKey[property.key] == nil { sourceByKey[property.key] = index } else { duplicateKeys = true }
        }
        if duplicateKeys {
            add(InferenceRules.duplicateSourcePropertyKeys(sourceProperties, sourceEntity: sName, entity: dName, files: files))
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
                compareAttributes(AttributePair(source: a, destination: b, sourceEntity: sName, entity: dName,
                                                location: files.destination(b.line, b.column)))
                if firstUse { propertyLineage[PropertyKey(sName, a.name)] = PropertyKey(dName, b.name) }
                mappings.append(.attribute(b.name, from: a.name))
            case let (.relationship(a), .relationship(b)):
                let surviving = a.destinationEntity.flatMap { entityLineage[$0] }
                compareRelationships(RelationshipPair(source: a, destination: b, sourceEntity: sName, entity: dName,
                                                      survivingDestination: surviving, location: files.destination(b.line, b.column)))
                if firstUse { propertyLineage[PropertyKey(sName, a.name)] = PropertyKey(dName, b.name) }
                mappings.append(.relationship(b.name, from: a.name))
            default:
                add(InferenceRules.kindChange(sp, dp, sourceEntity: sName, entity: dName, files: files))
                mappings.append(.init(destination: dp.name, expression: nil))
            }
        }
        let unmatchedSources = sourceProperties.indices.filter { !usedSources.contains($0) }
        let destinationTransient = transients(d)
        let sourceTransient = transients(s)
        let unmatchedDestinationProperties = unmatchedDestinations.map { destinationProperties[$0] }
        // Removals explained by one cause (transient, replaced by an entity, likely rename) raise that finding only.
        var explained: Set<Int> = []
        for si in unmatchedSources {
            let sp = sourceProperties[si]
            let cause = InferenceRules.becameTransient(sp, destinationTransients: destinationTransient, sourceEntity: sName, entity: dName, files: files)
                ?? InferenceRules.attributeReplaced(sp, unmatchedDestinations: unmatchedDestinationProperties, source: source,
                                                    destination: destination, sourceEntity: sName, entity: dName, files: files)
            if let cause {
                explained.insert(si)
                add(cause)
            }
        }
        var paired: Set<Int> = []
        let remaining = unmatchedSources.filter { !explained.contains($0) }
        for si in remaining {
            let candidates = unmatchedDestinations.filter { !paired.contains($0) && sourceTransient[destinationProperties[$0].key] == nil }
            guard let di = InferenceRules.likelyPropertyTwin(sourceProperties[si], among: candidates.map { ($0, destinationProperties[$0]) },
                                                             sources: remaining.map { sourceProperties[$0] }) else { continue }
            paired.insert(di)
            explained.insert(si)
            add(InferenceRules.suspectedPropertyRename(sourceProperties[si], destinationProperties[di], sourceEntity: sName, entity: dName, files: files))
        }
        for si in remaining {
            let property = sourceProperties[si]
            var movesDown = false
            if case .attribute(let a) = property, s.entity.isAbstract {
                movesDown = InferenceRules.movesDown(a.name, from: sName, source: source, destination: destination, lineage: entityLineage)
            }
            add(InferenceRules.propertyRemoved(property, sourceEntity: sName, entity: dName, explained: explained.contains(si),
                                               movesDown: movesDown, files: files))
        }
        for property in unmatchedDestinationProperties {
            if sourceTransient[property.key] != nil {
                add(InferenceRules.becameStored(property, sourceEntity: sName, entity: dName, files: files))
            } else {
                add(InferenceRules.addedProperty(property, sourceEntity: sName, entity: dName, files: files))
            }
            mappings.append(.init(destination: property.name, expression: nil))
        }
        return mappings.sorted { $0.destination < $1.destination }
    }

    /// The attribute rules, in the order the builder compares a matched pair.
    mutating func compareAttributes(_ pair: AttributePair) {
        add(InferenceRules.renamedAttribute(pair))
        add(InferenceRules.attributeType(pair))
        add(InferenceRules.externalStorageChange(pair))
        add(InferenceRules.attributeOptionality(pair))
        add(InferenceRules.attributeHashModifier(pair))
        add(InferenceRules.defaultValue(pair))
        add(InferenceRules.transformer(pair))
    }

    /// The relationship rules, in the order the builder compares a matched pair.
    mutating func compareRelationships(_ pair: RelationshipPair) {
        add(InferenceRules.renamedRelationship(pair))
        add(InferenceRules.relationshipDestination(pair))
        add(InferenceRules.toManyBecomesToOne(pair))
        add(InferenceRules.relationshipCardinality(pair))
        add(InferenceRules.relationshipOptionality(pair))
        add(InferenceRules.relationshipCounts(pair))
        add(InferenceRules.relationshipInverse(pair))
        add(InferenceRules.relationshipHashModifier(pair))
    }
}
