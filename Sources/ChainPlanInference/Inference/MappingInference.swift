/// The mapping Core Data would infer between two model versions
/// (`NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`), with every
/// change found and its verdict.
public struct InferredMapping: Sendable, Hashable {
    public var entityMappings: [InferredEntityMapping]
    public var changes: [ModelChange]
    /// Source entity name → destination entity name, for entities whose rows survive.
    public var entityLineage: [String: String]
    /// Source (entity, property) → destination (entity, property), for persistent properties whose values survive.
    public var propertyLineage: [PropertyKey: PropertyKey]

    /// False when the two versions are hash-equivalent: Core Data runs no migration.
    public var needsMigration: Bool { changes.contains { $0.verdict != .noMigration } }
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

/// Infers mappings the way Core Data does, following the rules of
/// `shared/reference/core-data.md` part 1 ("What Core Data can infer", "Matching").
///
/// Matching: a destination entity's key is its renaming identifier, else its name. A source
/// entity matches when its name equals the key, else when its own renaming identifier does
/// (renaming identifiers are canonical, so V2→V3 and V1→V3 both work when V3 keeps the
/// original name). Properties are matched the same way within matched entities, inherited
/// properties included.
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
        return InferredMapping(entityMappings: engine.entityMappings, changes: engine.changes,
                               entityLineage: engine.entityLineage, propertyLineage: engine.propertyLineage)
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
}

package struct ResolvedView: Sendable {
    package var entities: [ResolvedEntityView]
    var byName: [String: Int]
    /// Composite attribute types (iOS 17).
    var composites: [CompositeType] = []

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

    package init(_ model: ObjectModel) {
        var byName: [String: Int] = [:]
        for (index, entity) in model.entities.enumerated() where byName[entity.name] == nil {
            byName[entity.name] = index
        }
        var views: [ResolvedEntityView] = []
        for entity in model.entities {
            // Ancestors from the root down, stopping at cycles and missing parents.
            var chain: [Entity] = [entity]
            var seen: Set<String> = [entity.name]
            var current = entity
            while let parent = current.parentEntity, let index = byName[parent], !seen.contains(parent) {
                current = model.entities[index]
                seen.insert(parent)
                chain.append(current)
            }
            chain.reverse()
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            var names: Set<String> = []
            for ancestor in chain {
                for attribute in ancestor.attributes where names.insert(attribute.name).inserted { attributes.append(attribute) }
                for relationship in ancestor.relationships where names.insert(relationship.name).inserted {
                    relationships.append(relationship)
                }
            }
            views.append(ResolvedEntityView(entity: entity, root: chain[0].name, attributes: attributes, relationships: relationships))
        }
        self.entities = views
        self.byName = byName
        composites = model.composites
    }

    func entity(_ name: String) -> ResolvedEntityView? { byName[name].map { entities[$0] } }
}

// MARK: - Engine

/// A property of either kind, for matching.
private enum Property {
    case attribute(Attribute)
    case relationship(Relationship)

    var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        }
    }

    var renamingIdentifier: String? {
        switch self {
        case .attribute(let a): a.renamingIdentifier
        case .relationship(let r): r.renamingIdentifier
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

    var isTransient: Bool {
        switch self {
        case .attribute(let a): a.isTransient
        case .relationship(let r): r.isTransient
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
    /// Lower-cased entity names of each side, for spotting an attribute that became an entity.
    let sourceEntityNames: Set<String>
    let destinationEntityNames: Set<String>

    var changes: [ModelChange] = []
    var entityMappings: [InferredEntityMapping] = []
    var entityLineage: [String: String] = [:]
    var propertyLineage: [PropertyKey: PropertyKey] = [:]

    init(source: ResolvedView, destination: ResolvedView, sourceFile: String?, destinationFile: String?) {
        self.source = source
        self.destination = destination
        self.sourceFile = sourceFile
        self.destinationFile = destinationFile
        sourceEntityNames = Set(source.entities.map { $0.entity.name.lowercased() })
        destinationEntityNames = Set(destination.entities.map { $0.entity.name.lowercased() })
    }

    func at(_ file: String?, _ line: Int?, _ column: Int?) -> SourceLocation? {
        file.map { SourceLocation(file: $0, line: line, column: line == nil ? nil : column) }
    }

    mutating func add(_ change: ModelChange) { changes.append(change) }

    mutating func run() {
        // 1. Match entities.
        let matches = Matcher.match(
            sources: source.entities.map { ($0.entity.name, $0.entity.renamingIdentifier) },
            destinations: destination.entities.map { ($0.entity.name, $0.entity.renamingIdentifier) })
        var removedEntities = Set(source.entities.indices)
        var addedEntities = Set(destination.entities.indices)
        for (s, d) in matches {
            removedEntities.remove(s)
            addedEntities.remove(d)
            // Known for every entity before any is compared: a relationship's destination is
            // judged by where that entity's rows go, whichever entity is compared first.
            entityLineage[source.entities[s].entity.name] = destination.entities[d].entity.name
        }
        // 2. Compare matched entities.
        for (s, d) in matches.sorted(by: { $0.1 < $1.1 }) {
            compareEntities(source.entities[s], destination.entities[d])
        }
        // 3. Added and removed entities, and likely entity renames.
        let removed = removedEntities.sorted().map { source.entities[$0] }
        let added = addedEntities.sorted().map { destination.entities[$0] }
        var renamedGuess: Set<String> = []
        for gone in removed {
            if let twin = likelyEntityTwin(of: gone, among: added) {
                renamedGuess.insert(twin.entity.name)
                add(ModelChange(.likelyEntityRename, entity: gone.entity.name,
                                detail: "entity '\(gone.entity.name)' is removed and '\(twin.entity.name)' added with similar attributes, "
                                    + "but '\(twin.entity.name)' has no renaming identifier '\(gone.entity.name)': Core Data infers drop + add and its rows are deleted",
                                verdict: .dataLoss, rule: "rename-without-renaming-identifier", basis: .documented, code: .cp202,
                                location: at(destinationFile, twin.entity.line, twin.entity.column)))
            }
            add(ModelChange(.entityRemoved, entity: gone.entity.name,
                            detail: "entity '\(gone.entity.name)' is removed; its rows are deleted",
                            verdict: .dataLoss, rule: "remove-entity", basis: .documented, code: .cp209,
                            location: at(sourceFile, gone.entity.line, gone.entity.column)))
            entityMappings.append(InferredEntityMapping(name: "Remove\(gone.entity.name)", kind: .remove,
                                                        source: gone.entity.name, destination: nil, propertyMappings: []))
        }
        for new in added {
            add(ModelChange(.entityAdded, entity: new.entity.name, detail: "entity '\(new.entity.name)' is added",
                            verdict: .inferable, rule: "add-entity", basis: .documented,
                            location: at(destinationFile, new.entity.line, new.entity.column)))
            entityMappings.append(InferredEntityMapping(name: "Add\(new.entity.name)", kind: .add, source: nil,
                                                        destination: new.entity.name, propertyMappings: []))
        }
        // 4. Hierarchy merges: matched entities with different source roots that share a destination root.
        checkHierarchyMerges(matches)
        entityMappings.sort { ($0.destination ?? $0.source ?? "", $0.name) < ($1.destination ?? $1.source ?? "", $1.name) }
    }

    // MARK: Entities

    mutating func compareEntities(_ s: ResolvedEntityView, _ d: ResolvedEntityView) {
        let sName = s.entity.name
        let dName = d.entity.name
        let here = at(destinationFile, d.entity.line, d.entity.column)
        let changesBefore = changes.count
        if sName != dName {
            add(ModelChange(.entityRenamed, entity: dName, detail: "entity '\(sName)' is renamed to '\(dName)' (renaming identifier)",
                            verdict: .inferable, rule: "rename-entity-with-renaming-identifier", basis: .documented, location: here))
        }
        let sParent = s.entity.parentEntity.flatMap { source.entity($0) }.map { $0.entity.name }
        let dParent = d.entity.parentEntity.flatMap { destination.entity($0) }.map { $0.entity.name }
        let parentSourceName = dParent.flatMap { parent in entityLineage.first { $0.value == parent }?.key } ?? dParent
        if sParent != parentSourceName || (sParent == nil) != (dParent == nil) {
            let from = sParent.map { "'\($0)'" } ?? "none"
            let to = dParent.map { "'\($0)'" } ?? "none"
            add(ModelChange(.parentChanged, entity: dName, detail: "entity '\(dName)' changes parent from \(from) to \(to)",
                            verdict: .inferable, rule: "change-parent-entity", basis: .documented, location: here))
        }
        if s.entity.isAbstract != d.entity.isAbstract {
            add(ModelChange(.abstractChanged, entity: dName,
                            detail: "entity '\(dName)' becomes \(d.entity.isAbstract ? "abstract" : "concrete")",
                            verdict: d.entity.isAbstract ? .dataLoss : .inferable,
                            rule: "change-abstract", basis: .conservative, code: d.entity.isAbstract ? .cp210 : nil, location: here))
        }
        if (s.entity.versionHashModifier ?? "") != (d.entity.versionHashModifier ?? "") {
            add(ModelChange(.hashModifierChanged, entity: dName,
                            detail: "entity '\(dName)' changes its version hash modifier, forcing a migration",
                            verdict: .inferable, rule: "version-hash-modifier", basis: .documented, location: here))
        }
        let oldConstraints = Set(s.entity.uniquenessConstraints.map { $0.sorted() })
        let newConstraints = Set(d.entity.uniquenessConstraints.map { $0.sorted() })
        if oldConstraints != newConstraints {
            // Undocumented either way: if Core Data migrates for it, rows that already share the
            // values make the migration fail; if it does not, the duplicates stay. Both deserve a look.
            let added = newConstraints.subtracting(oldConstraints).sorted { $0.joined(separator: ",") < $1.joined(separator: ",") }
            let detail = added.isEmpty
                ? "entity '\(dName)' removes uniqueness constraints"
                : "entity '\(dName)' adds a uniqueness constraint on " + added.map { "(\($0.joined(separator: ", ")))" }.joined(separator: " and ")
                    + ": not a version-hash input, so Core Data may run no migration and keep existing duplicates, and where it"
                    + " does migrate, duplicates make it fail (a dry run counts them in a real store)"
            add(ModelChange(.uniquenessChanged, entity: dName, detail: detail,
                            verdict: .noMigration, rule: "uniqueness-constraints-not-hashed", basis: .conservative,
                            code: added.isEmpty ? nil : .cp210, location: here))
        }
        if Set(s.entity.fetchIndexes.map(\.name)) != Set(d.entity.fetchIndexes.map(\.name))
            || Set(s.entity.compoundIndexes) != Set(d.entity.compoundIndexes) {
            add(ModelChange(.indexChanged, entity: dName, detail: "entity '\(dName)' changes its indexes",
                            verdict: .noMigration, rule: "indexes-not-hashed", basis: .conservative, location: here))
        }
        let propertyMappings = compareProperties(s, d)
        let changed = changes[changesBefore...].contains { $0.verdict != .noMigration }
        entityMappings.append(InferredEntityMapping(name: "\(sName)To\(dName)", kind: changed ? .transform : .copy,
                                                    source: sName, destination: dName, propertyMappings: propertyMappings))
    }

    func likelyEntityTwin(of gone: ResolvedEntityView, among added: [ResolvedEntityView]) -> ResolvedEntityView? {
        let goneAttributes = Set(gone.attributes.filter { !$0.isTransient }.map { "\($0.name):\($0.type.xmlValue)" })
        var best: (Double, ResolvedEntityView)?
        for candidate in added {
            let attributes = Set(candidate.attributes.filter { !$0.isTransient }.map { "\($0.name):\($0.type.xmlValue)" })
            let union = goneAttributes.union(attributes)
            let similarity = union.isEmpty ? (added.count == 1 ? 1 : 0) : Double(goneAttributes.intersection(attributes).count) / Double(union.count)
            if similarity >= 0.5, similarity > (best?.0 ?? 0) { best = (similarity, candidate) }
        }
        return best?.1
    }

    mutating func checkHierarchyMerges(_ matches: [(Int, Int)]) {
        var sourceRootsByDestinationRoot: [String: Set<String>] = [:]
        for (s, d) in matches {
            sourceRootsByDestinationRoot[destination.entities[d].root, default: []].insert(source.entities[s].root)
        }
        for (root, sourceRoots) in sourceRootsByDestinationRoot.sorted(by: { $0.key < $1.key }) where sourceRoots.count > 1 {
            let list = sourceRoots.sorted().map { "'\($0)'" }.joined(separator: ", ")
            add(ModelChange(.hierarchyMerged, entity: root,
                            detail: "entities from separate hierarchies (roots \(list)) now share the root '\(root)'",
                            verdict: .blocksInference, rule: "merge-entity-hierarchies", basis: .documented, code: .cp205,
                            location: at(destinationFile, destination.entity(root)?.entity.line, destination.entity(root)?.entity.column)))
        }
    }

    // MARK: Properties

    mutating func compareProperties(_ s: ResolvedEntityView, _ d: ResolvedEntityView) -> [InferredEntityMapping.PropertyMapping] {
        let sName = s.entity.name
        let dName = d.entity.name
        var mappings: [InferredEntityMapping.PropertyMapping] = []
        let sourceProperties = s.attributes.map(Property.attribute) + s.relationships.map(Property.relationship)
        let destinationProperties = d.attributes.map(Property.attribute) + d.relationships.map(Property.relationship)
        let matches = Matcher.match(sources: sourceProperties.map { ($0.name, $0.renamingIdentifier) },
                                    destinations: destinationProperties.map { ($0.name, $0.renamingIdentifier) })
        var unmatchedSources = Set(sourceProperties.indices)
        var unmatchedDestinations = Set(destinationProperties.indices)
        var kindChanged: Set<Int> = []
        for (si, di) in matches {
            let sp = sourceProperties[si]
            let dp = destinationProperties[di]
            switch (sp, dp) {
            case let (.attribute(a), .attribute(b)):
                unmatchedSources.remove(si)
                unmatchedDestinations.remove(di)
                compareAttributes(a, b, sourceEntity: sName, entity: dName)
                if !a.isTransient, !b.isTransient { propertyLineage[PropertyKey(sName, a.name)] = PropertyKey(dName, b.name) }
                mappings.append(.init(destination: b.name, expression: "$source.\(a.name)"))
            case let (.relationship(a), .relationship(b)):
                unmatchedSources.remove(si)
                unmatchedDestinations.remove(di)
                compareRelationships(a, b, sourceEntity: sName, entity: dName)
                if !a.isTransient, !b.isTransient { propertyLineage[PropertyKey(sName, a.name)] = PropertyKey(dName, b.name) }
                mappings.append(.init(destination: b.name, expression: "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"\(a.name)\", $source.\(a.name))"))
            default:
                // An attribute became a relationship or the reverse: Core Data infers drop + add.
                kindChanged.insert(si)
                if !sp.isTransient {
                    let fromKind = if case .attribute = sp { "attribute" } else { "relationship" }
                    let toKind = if case .attribute = dp { "attribute" } else { "relationship" }
                    add(ModelChange(.propertyKindChanged, entity: dName, property: dp.name,
                                    detail: "'\(sName).\(sp.name)' changes from \(fromKind) to \(toKind): Core Data infers drop + add, and the stored values are deleted",
                                    verdict: .dataLoss, rule: "attribute-to-relationship-is-drop-and-add", basis: .documented,
                                    code: .cp211, location: at(destinationFile, dp.line, dp.column)))
                }
            }
        }
        // Attributes turned into an entity: a removed attribute whose name is now an added relationship's
        // or entity's name (case-insensitively), e.g. `categoria` → entity `Categoria`.
        var explainedRemovals: Set<Int> = []
        for si in unmatchedSources.sorted() where !kindChanged.contains(si) {
            guard case .attribute(let a) = sourceProperties[si], !a.isTransient else { continue }
            let lowered = a.name.lowercased()
            let becameRelationship = unmatchedDestinations.contains { di in
                if case .relationship(let r) = destinationProperties[di] { return r.name.lowercased() == lowered }
                return false
            }
            let becameEntity = destinationEntityNames.contains(lowered) && !sourceEntityNames.contains(lowered)
            if becameRelationship || becameEntity {
                explainedRemovals.insert(si)
                add(ModelChange(.propertyKindChanged, entity: dName, property: a.name,
                                detail: "attribute '\(sName).\(a.name)' is replaced by \(becameRelationship ? "a relationship" : "an entity") of the same name: Core Data infers drop + add, and its values are deleted",
                                verdict: .dataLoss, rule: "attribute-to-relationship-is-drop-and-add", basis: .documented,
                                code: .cp211, location: at(sourceFile, a.line, a.column)))
            }
        }
        // Likely renames: a removed and an added property of the same kind and type.
        var pairedDestinations: Set<Int> = []
        for si in unmatchedSources.sorted() where !explainedRemovals.contains(si) && !kindChanged.contains(si) {
            guard !sourceProperties[si].isTransient,
                  let di = likelyPropertyTwin(sourceProperties[si], among: unmatchedDestinations.subtracting(pairedDestinations).sorted().map { ($0, destinationProperties[$0]) }, sources: unmatchedSources.map { sourceProperties[$0] })
            else { continue }
            pairedDestinations.insert(di)
            let gone = sourceProperties[si].name
            let new = destinationProperties[di].name
            add(ModelChange(.likelyPropertyRename, entity: dName, property: new,
                            detail: "'\(sName).\(gone)' is removed and '\(dName).\(new)' added with the same type, but '\(new)' has no renaming identifier '\(gone)': Core Data infers drop + add and the values are deleted",
                            verdict: .dataLoss, rule: "rename-without-renaming-identifier", basis: .documented, code: .cp202,
                            location: at(destinationFile, destinationProperties[di].line, destinationProperties[di].column)))
        }
        for si in unmatchedSources.sorted() where !kindChanged.contains(si) {
            let property = sourceProperties[si]
            switch property {
            case .attribute(let a) where !a.isTransient && s.entity.isAbstract && movedDown(a.name, from: s):
                // An abstract entity has no rows of its own: its values live in its subentities,
                // which keep the attribute.
                add(ModelChange(.attributeRemoved, entity: dName, property: a.name,
                                detail: "attribute '\(sName).\(a.name)' moves down into the subentities of abstract '\(sName)', which keep its values",
                                verdict: .inferable, rule: "move-property-down-hierarchy", basis: .documented, location: at(sourceFile, a.line, a.column)))
            case .attribute(let a):
                // A removal already explained as a kind change (CP211) raises no second finding.
                let explained = explainedRemovals.contains(si)
                add(ModelChange(.attributeRemoved, entity: dName, property: a.name,
                                detail: "attribute '\(sName).\(a.name)' is removed" + (a.isTransient ? " (transient: no stored data)" : "; its values are deleted"),
                                verdict: a.isTransient ? .inferable : .dataLoss, rule: "remove-attribute", basis: .documented,
                                code: a.isTransient || explained ? nil : .cp209, location: at(sourceFile, a.line, a.column)))
            case .relationship(let r):
                add(ModelChange(.relationshipRemoved, entity: dName, property: r.name,
                                detail: "relationship '\(sName).\(r.name)' is removed" + (r.isTransient ? " (transient)" : "; its links are deleted"),
                                verdict: .inferable, rule: "remove-relationship", basis: .documented, location: at(sourceFile, r.line, r.column)))
            }
        }
        for di in unmatchedDestinations.sorted() {
            switch destinationProperties[di] {
            case .attribute(let a):
                addAttribute(a, entity: dName)
                mappings.append(.init(destination: a.name, expression: nil))
            case .relationship(let r):
                let required = r.isRequired
                add(ModelChange(.relationshipAdded, entity: dName, property: r.name,
                                detail: "relationship '\(dName).\(r.name)' is added" + (required ? "; it is required but existing rows have no value" : ""),
                                verdict: .inferable, rule: required ? "add-required-relationship" : "add-relationship",
                                basis: required ? .conservative : .documented, code: required ? .cp210 : nil,
                                location: at(destinationFile, r.line, r.column)))
                mappings.append(.init(destination: r.name, expression: nil))
            }
        }
        return mappings.sorted { $0.destination < $1.destination }
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

    mutating func addAttribute(_ a: Attribute, entity: String) {
        let here = at(destinationFile, a.line, a.column)
        if a.isTransient || a.isOptional || a.hasDefaultValue || a.isDerived {
            let why = a.isTransient ? "transient" : a.isOptional ? "optional" : a.isDerived ? "derived" : "with a default value"
            add(ModelChange(.attributeAdded, entity: entity, property: a.name, detail: "attribute '\(entity).\(a.name)' is added (\(why))",
                            verdict: .inferable, rule: a.isOptional || a.isTransient || a.isDerived ? "add-optional-attribute" : "add-attribute-with-default",
                            basis: .documented, location: here))
        } else {
            add(ModelChange(.attributeAdded, entity: entity, property: a.name,
                            detail: "non-optional attribute '\(entity).\(a.name)' is added without a default value",
                            verdict: .blocksInference, rule: "add-non-optional-attribute-without-default", basis: .documented,
                            code: .cp203, location: here))
        }
    }

    mutating func compareAttributes(_ a: Attribute, _ b: Attribute, sourceEntity: String, entity: String) {
        let here = at(destinationFile, b.line, b.column)
        let label = "'\(entity).\(b.name)'"
        if a.name != b.name {
            add(ModelChange(.attributeRenamed, entity: entity, property: b.name,
                            detail: "attribute '\(sourceEntity).\(a.name)' is renamed to \(label) (renaming identifier)",
                            verdict: .inferable, rule: "rename-property-with-renaming-identifier", basis: .documented, location: here))
        }
        if a.isTransient != b.isTransient {
            if b.isTransient {
                add(ModelChange(.transientChanged, entity: entity, property: b.name, detail: "attribute \(label) becomes transient; its stored values are deleted",
                                verdict: .dataLoss, rule: "persistent-to-transient", basis: .documented, code: .cp209, location: here))
            } else {
                addAttribute(b, entity: entity)
            }
            return
        }
        if a.type != b.type, !b.isTransient {
            let numeric = a.type.isNumeric && b.type.isNumeric && a.type != .decimal && b.type != .decimal
            // Boolean is stored as an INTEGER column; Wire's tests migrate a 2.53.0 store (Boolean
            // `Conversation.mutedStatus`) to a model where it is Integer 32 by inference.
            let booleanToInteger = a.type == .boolean && [.integer16, .integer32, .integer64].contains(b.type)
            if numeric || booleanToInteger {
                add(ModelChange(.attributeTypeChanged, entity: entity, property: b.name,
                                detail: "attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue) (\(numeric ? "numeric" : "Boolean to integer"): inferred in shipped apps)",
                                verdict: .inferable, rule: numeric ? "numeric-type-change" : "boolean-to-integer", basis: .observed, location: here))
            } else {
                add(ModelChange(.attributeTypeChanged, entity: entity, property: b.name,
                                detail: "attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue)",
                                verdict: .blocksInference, rule: "non-numeric-type-change", basis: .conservative, code: .cp204,
                                location: here))
            }
        } else if a.type != b.type {
            add(ModelChange(.attributeTypeChanged, entity: entity, property: b.name,
                            detail: "transient attribute \(label) changes type from \(a.type.xmlValue) to \(b.type.xmlValue)",
                            verdict: .inferable, rule: "transient-type-change", basis: .documented, location: here))
        }
        if a.isOptional != b.isOptional {
            if b.isOptional {
                add(ModelChange(.optionalityChanged, entity: entity, property: b.name, detail: "attribute \(label) becomes optional",
                                verdict: .inferable, rule: "non-optional-to-optional", basis: .documented, location: here))
            } else if b.hasDefaultValue || b.isTransient || b.isDerived {
                add(ModelChange(.optionalityChanged, entity: entity, property: b.name,
                                detail: "attribute \(label) becomes non-optional with a default value",
                                verdict: .inferable, rule: "optional-to-non-optional-with-default", basis: .documented, location: here))
            } else {
                add(ModelChange(.optionalityChanged, entity: entity, property: b.name,
                                detail: "attribute \(label) becomes non-optional without a default value",
                                verdict: .blocksInference, rule: "optional-to-non-optional-without-default", basis: .documented,
                                code: .cp203, location: here))
            }
        }
        if (a.versionHashModifier ?? "") != (b.versionHashModifier ?? "") {
            add(ModelChange(.hashModifierChanged, entity: entity, property: b.name,
                            detail: "attribute \(label) changes its version hash modifier, forcing a migration",
                            verdict: .inferable, rule: "version-hash-modifier", basis: .documented, location: here))
        }
        if a.defaultValueString != b.defaultValueString || a.defaultDateTimeInterval != b.defaultDateTimeInterval {
            add(ModelChange(.defaultValueChanged, entity: entity, property: b.name, detail: "attribute \(label) changes its default value",
                            verdict: .noMigration, rule: "default-value-not-hashed", basis: .documented, location: here))
        }
        if a.type == .composite, b.type == .composite, !a.isTransient, !b.isTransient {
            compareComposites(a, b, sourceEntity: sourceEntity, entity: entity)
        }
        if a.type == .transformable, b.type == .transformable, !b.isTransient,
           (a.valueTransformerName ?? "") != (b.valueTransformerName ?? "") || (a.customClassName ?? "") != (b.customClassName ?? "") {
            // Class names and transformers are not version-hash inputs: no migration converts the
            // stored bytes, which the new transformer (or class) must still read.
            add(ModelChange(.transformerChanged, entity: entity, property: b.name,
                            detail: "transformable attribute \(label) changes its value transformer or class "
                                + "(\(a.valueTransformerName ?? "default") / \(a.customClassName ?? "none") → \(b.valueTransformerName ?? "default") / \(b.customClassName ?? "none")): "
                                + "no migration converts stored values, so the new one must decode what the old one wrote",
                            verdict: .noMigration, rule: "value-transformer-not-hashed", basis: .documented, code: .cp210, location: here))
        }
    }

    /// A composite attribute (iOS 17) keeps each element of its type in a column of its own, and
    /// Apple documents composites as usable "anywhere you use standard attributes, including
    /// lightweight migrations": an element added, removed or changed is judged like an attribute
    /// of the entity, named `attribute.element`.
    mutating func compareComposites(_ a: Attribute, _ b: Attribute, sourceEntity: String, entity: String) {
        let old = source.elements(of: a)
        let new = destination.elements(of: b)
        let pairs = Matcher.match(sources: old.map { ($0.name, $0.renamingIdentifier) },
                                  destinations: new.map { ($0.name, $0.renamingIdentifier) })
        var removed = Set(old.indices)
        var added = Set(new.indices)
        for (s, d) in pairs {
            removed.remove(s)
            added.remove(d)
            compareAttributes(old[s], new[d], sourceEntity: sourceEntity, entity: entity)
        }
        for s in removed.sorted() {
            let element = old[s]
            add(ModelChange(.attributeRemoved, entity: entity, property: element.name,
                            detail: "element '\(entity).\(element.name)' of a composite attribute is removed; its values are deleted",
                            verdict: .dataLoss, rule: "remove-attribute", basis: .documented, code: .cp209,
                            location: at(sourceFile, element.line, element.column)))
        }
        for d in added.sorted() { addAttribute(new[d], entity: entity) }
    }

    mutating func compareRelationships(_ a: Relationship, _ b: Relationship, sourceEntity: String, entity: String) {
        let here = at(destinationFile, b.line, b.column)
        let label = "'\(entity).\(b.name)'"
        if a.name != b.name {
            add(ModelChange(.relationshipRenamed, entity: entity, property: b.name,
                            detail: "relationship '\(sourceEntity).\(a.name)' is renamed to \(label) (renaming identifier)",
                            verdict: .inferable, rule: "rename-property-with-renaming-identifier", basis: .documented, location: here))
        }
        let mappedDestination = a.destinationEntity.flatMap { entityLineage[$0] } ?? a.destinationEntity
        let sameDestination = mappedDestination == b.destinationEntity || a.destinationEntity == b.destinationEntity
            || matchesByRenaming(a.destinationEntity, b.destinationEntity)
        if !sameDestination {
            let moved = "relationship \(label) now points to '\(b.destinationEntity ?? "?")' instead of '\(a.destinationEntity ?? "?")'"
            // The migrated links still point at the rows of the old destination. When those rows
            // become instances of the new destination (or of an entity below it), the links stay
            // valid; otherwise they would point at rows of another entity. Neither is documented.
            let surviving = a.destinationEntity.flatMap { entityLineage[$0] }
            if surviving == nil {
                // The old destination's rows are deleted (reported with the entity): no link
                // survives to point at the wrong entity.
                add(ModelChange(.destinationChanged, entity: entity, property: b.name,
                                detail: moved + " ('\(a.destinationEntity ?? "?")' is removed, so its links are dropped)",
                                verdict: .inferable, rule: "relationship-destination-removed", basis: .documented, location: here))
            } else if let mapped = surviving, let target = b.destinationEntity,
                      destination.isKind(mapped, of: target) {
                add(ModelChange(.destinationChanged, entity: entity, property: b.name,
                                detail: moved + " ('\(mapped)' is a kind of '\(target)', so the links stay valid; not documented as inferable)",
                                verdict: .inferable, rule: "relationship-destination-to-ancestor", basis: .conservative, code: .cp210, location: here))
            } else {
                add(ModelChange(.destinationChanged, entity: entity, property: b.name,
                                detail: moved + ": the linked rows are not instances of the new destination, and Core Data does not document inferring this",
                                verdict: .blocksInference, rule: "relationship-destination-change", basis: .conservative, code: .cp210, location: here))
            }
        }
        if a.isToMany != b.isToMany {
            if b.isToMany {
                add(ModelChange(.cardinalityChanged, entity: entity, property: b.name, detail: "relationship \(label) changes from to-one to to-many",
                                verdict: .inferable, rule: "to-one-to-to-many", basis: .documented, location: here))
            } else {
                add(ModelChange(.cardinalityChanged, entity: entity, property: b.name,
                                detail: "relationship \(label) changes from to-many to to-one (not documented as inferable; rows with several links may lose all but one)",
                                verdict: .inferable, rule: "to-many-to-to-one", basis: .conservative, code: .cp210, location: here))
            }
        } else if a.isToMany, a.isOrdered != b.isOrdered {
            add(ModelChange(.orderingChanged, entity: entity, property: b.name,
                            detail: "relationship \(label) becomes \(b.isOrdered ? "ordered" : "unordered")",
                            verdict: .inferable, rule: "ordered-unordered", basis: .documented, location: here))
        }
        if a.isOptional != b.isOptional || a.minCount != b.minCount || (a.maxCount != b.maxCount && a.isToMany == b.isToMany) {
            let required = b.isRequired && !a.isRequired
            add(ModelChange(.countChanged, entity: entity, property: b.name,
                            detail: "relationship \(label) changes its optionality or count limits"
                                + (required ? "; it becomes required but existing rows may have no value" : ""),
                            verdict: .inferable, rule: required ? "relationship-becomes-required" : "relationship-count-change",
                            basis: required ? .conservative : .documented, code: required ? .cp210 : nil, location: here))
        }
        if a.deletionRule != b.deletionRule {
            add(ModelChange(.deleteRuleChanged, entity: entity, property: b.name,
                            detail: "relationship \(label) changes its delete rule from \(a.deletionRule.rawValue) to \(b.deletionRule.rawValue)",
                            verdict: .inferable, rule: "delete-rule-change", basis: .documented, location: here))
        }
        if (a.inverseName ?? "") != (b.inverseName ?? ""), !propertyRenamed(a.inverseName, b.inverseName, in: b.destinationEntity) {
            add(ModelChange(.inverseChanged, entity: entity, property: b.name,
                            detail: "relationship \(label) changes its inverse from '\(a.inverseName ?? "none")' to '\(b.inverseName ?? "none")'",
                            verdict: .inferable, rule: "inverse-change", basis: .documented, location: here))
        }
        if a.isTransient != b.isTransient {
            add(ModelChange(.transientChanged, entity: entity, property: b.name,
                            detail: "relationship \(label) becomes \(b.isTransient ? "transient" : "persistent")",
                            verdict: .inferable, rule: "transient-relationship", basis: .documented, location: here))
        }
        if (a.versionHashModifier ?? "") != (b.versionHashModifier ?? "") {
            add(ModelChange(.hashModifierChanged, entity: entity, property: b.name,
                            detail: "relationship \(label) changes its version hash modifier, forcing a migration",
                            verdict: .inferable, rule: "version-hash-modifier", basis: .documented, location: here))
        }
    }

    /// True when destination entity `new` is the renamed source entity `old`.
    /// True when every concrete entity below `entity` in the source keeps a stored attribute
    /// `name` in the entity its rows go to (so removing it from `entity` moves it down).
    func movedDown(_ name: String, from entity: ResolvedEntityView) -> Bool {
        let below = source.entities.filter { candidate in
            !candidate.entity.isAbstract && candidate.entity.name != entity.entity.name
                && source.isKind(candidate.entity.name, of: entity.entity.name)
        }
        return !below.isEmpty && below.allSatisfy { child in
            guard let mapped = entityLineage[child.entity.name], let kept = destination.entity(mapped) else { return false }
            return kept.attributes.contains { $0.name == name && !$0.isTransient }
        }
    }

    func matchesByRenaming(_ old: String?, _ new: String?) -> Bool {
        guard let old, let new, let entity = destination.entity(new)?.entity else { return false }
        return entity.renamingIdentifier == old
    }

    /// True when property `new` of destination entity `entityName` renames `old`.
    func propertyRenamed(_ old: String?, _ new: String?, in entityName: String?) -> Bool {
        guard let old, let new, let entityName, let entity = destination.entity(entityName) else { return false }
        let renaming = entity.attributes.first { $0.name == new }?.renamingIdentifier
            ?? entity.relationships.first { $0.name == new }?.renamingIdentifier
        return renaming == old
    }
}

extension Relationship {
    /// A value is required: a non-optional to-one, or a minimum count above zero. (Xcode often
    /// writes to-many relationships without `optional="YES"`; with no minimum they accept none.)
    var isRequired: Bool { minCount > 0 || (!isOptional && !isToMany) }
}

/// Pairs destinations with sources: key = renaming identifier, else name; a source matches
/// by name first, then by its own renaming identifier. One-to-one.
package enum Matcher {
    package static func match(sources: [(name: String, renamingIdentifier: String?)],
                      destinations: [(name: String, renamingIdentifier: String?)]) -> [(Int, Int)] {
        var byName: [String: Int] = [:]
        var byRenaming: [String: Int] = [:]
        for (index, source) in sources.enumerated() {
            if byName[source.name] == nil { byName[source.name] = index }
            if let rid = source.renamingIdentifier, !rid.isEmpty, byRenaming[rid] == nil { byRenaming[rid] = index }
        }
        var used: Set<Int> = []
        var pairs: [(Int, Int)] = []
        for (index, destination) in destinations.enumerated() {
            let key = destination.renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? destination.name
            if let s = byName[key], !used.contains(s) {
                used.insert(s)
                pairs.append((s, index))
            } else if let s = byRenaming[key], !used.contains(s) {
                used.insert(s)
                pairs.append((s, index))
            }
        }
        return pairs
    }
}
