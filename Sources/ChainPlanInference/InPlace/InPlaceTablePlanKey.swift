/// Everything `InPlaceTablePlanner.plan(_:)` reads from the source side to plan one destination
/// table against the predicted source schema (`LiveSchema.predicted`), so that steps to the same
/// destination model whose source-side inputs for that table are equal can share the plan's
/// outcome (a long history's direct jumps to the last version re-plan mostly equal tables). The
/// destination side (its layout and properties) is not in the key: a key compares tables of
/// steps to one destination model only, and the memo keeping keys checks that it does.
///
/// Two keyers give equal keys for a table only when `plan(_:)` reads equal values in both, but
/// for the entity numbers' values, which only the plan's SQL text (`entityCases`, the `Z_ENT`
/// fill's value) holds: its sources, blockers, added, filled, deferrable and pending columns are
/// then equal. Read:
/// - for each entity of the destination table: the source entity it is filled from, whether both
///   entity numbers are known and whether the number stays, the source table holding it, and the
///   source entity's pairing inputs (`SourceEntity`);
/// - for each source table found: its predicted layout (the predicted live table is made from it),
///   which of its entities are numbered, and every destination entity filled from an entity of
///   that table with the source entity's pairing inputs. Those decide which of the table's
///   entities, to-ones and relationships the step keeps (the only ones a destination property
///   can be paired with lie in the same inheritance tree, hence the same table).
///
/// Example (the tests run it): Note(title, folder) → Note(title with a default, folder
/// mandatory) from equal Note tables on other lines of the file gives equal keys; the source's
/// `title` made optional (or its type, a column, `folder`'s optionality, an entity sorted before
/// Note, a sub-entity of Folder, Note's name) gives different ones and a different ZNOTE row.
package struct InPlaceTablePlanKey: Hashable, Sendable {
    /// The entity numbers only as whether they are known and kept: the numbers themselves are
    /// read only into the plan's SQL (`entityCases`, the `Z_ENT` fill's value), which no key
    /// user reads; an entity added elsewhere shifts them across a long history.
    struct Member: Hashable, Sendable {
        var sourceName: String?
        var source: SourceEntity?
        var hasOldNumber: Bool
        var hasNewNumber: Bool
        var keepsNumber: Bool
        var table: String?
    }

    /// A destination entity filled from an entity of a source table.
    struct Feeder: Hashable, Sendable {
        var destination: String
        var source: SourceEntity
    }

    struct SourceTable: Hashable, Sendable {
        var layout: StoreLayout.Table
        /// Whether the source layout numbers each entity of the table, in the layout's order.
        var numbered: [Bool]
        /// In the destination's entity order.
        var feeders: [Feeder]
    }

    var table: String
    var members: [Member]
    var sources: [SourceTable]
}

/// What the step's pairing (`StepMapping`) and the plan read of one source entity: its name and,
/// for each of its resolved attributes and relationships in order, the name and renaming
/// identifier it is paired by, the entity declaring it, and its optionality (and for a
/// relationship whether it is to-many). Nothing else of a source property is read by a plan: its
/// column, type and order live in the source layout.
package struct SourceEntity: Hashable, Sendable {
    struct Property: Hashable, Sendable {
        var name: String
        var renamingIdentifier: String?
        /// The ancestor declaring an inherited property; nil for the entity's own.
        var declaringEntity: String?
        var isOptional: Bool
        var isToMany: Bool
    }

    var name: String
    var attributes: [Property]
    var relationships: [Property]

    init(_ entity: ResolvedEntity) {
        name = entity.name
        attributes = entity.attributes.map {
            Property(name: $0.name, renamingIdentifier: $0.renamingIdentifier, declaringEntity: entity.inheritedFrom[$0.name],
                     isOptional: $0.isOptional, isToMany: false)
        }
        relationships = entity.relationships.map {
            Property(name: $0.name, renamingIdentifier: $0.renamingIdentifier, declaringEntity: entity.inheritedFrom[$0.name],
                     isOptional: $0.isOptional, isToMany: $0.isToMany)
        }
    }
}

/// Makes the keys of one step's destination tables (see `InPlaceTablePlanKey`), reading each
/// source entity and source table once however many tables use it. Not shared between threads.
package final class InPlaceTablePlanKeyer {
    let mapping: StepMapping
    let sourceLayout: StoreLayout
    let layout: StoreLayout
    /// The predicted schema's entity numbers (`LiveSchema.predicted(sourceLayout).entityNumbers`).
    let oldNumbers: [String: Int]
    /// Source entity → destination entities filled from it, in the destination's order.
    private let fed: [String: [String]]
    private var entities: [String: SourceEntity?] = [:]
    private var tables: [String: InPlaceTablePlanKey.SourceTable] = [:]

    package init(mapping: StepMapping, sourceLayout: StoreLayout, layout: StoreLayout, oldNumbers: [String: Int]) {
        self.mapping = mapping
        self.sourceLayout = sourceLayout
        self.layout = layout
        self.oldNumbers = oldNumbers
        var fed: [String: [String]] = [:]
        // By position: a `ResolvedEntity` copied whole per entity and step cost more than the rest.
        for position in mapping.destination.entities.indices {
            let name = mapping.destination.entities[position].entity.name
            if let source = mapping.entitySource[name] { fed[source, default: []].append(name) }
        }
        self.fed = fed
    }

    private func sourceEntity(_ name: String) -> SourceEntity? {
        if let known = entities[name] { return known }
        let made = mapping.source.position(of: name).map { SourceEntity(mapping.source.entities[$0]) }
        entities[name] = made
        return made
    }

    private func sourceTable(_ table: StoreLayout.Table) -> InPlaceTablePlanKey.SourceTable {
        if let known = tables[table.name] { return known }
        var feeders: [InPlaceTablePlanKey.Feeder] = []
        for entity in table.entities {
            guard let destinations = fed[entity], let source = sourceEntity(entity) else { continue }
            for destination in destinations { feeders.append(.init(destination: destination, source: source)) }
        }
        let made = InPlaceTablePlanKey.SourceTable(layout: table, numbered: table.entities.map { oldNumbers[$0] != nil },
                                                   feeders: feeders)
        tables[table.name] = made
        return made
    }

    /// The key of `InPlaceTablePlanner.plan(table)` for a planner of this step against
    /// `LiveSchema.predicted(sourceLayout)`.
    package func key(_ table: StoreLayout.Table) -> InPlaceTablePlanKey {
        var members: [InPlaceTablePlanKey.Member] = []
        members.reserveCapacity(table.entities.count)
        var sources: [InPlaceTablePlanKey.SourceTable] = []
        for member in table.entities {
            let old = mapping.entitySource[member]
            let found = old.flatMap { sourceLayout.table(holding: $0) }
            let oldNumber = old.flatMap { oldNumbers[$0] }
            let newNumber = layout.entity(named: member)?.number
            members.append(.init(sourceName: old, source: old.flatMap(sourceEntity), hasOldNumber: oldNumber != nil, hasNewNumber: newNumber != nil,
                                 keepsNumber: oldNumber == newNumber, table: found?.name))
            guard let found, !sources.contains(where: { $0.layout.name == found.name }) else { continue }
            sources.append(sourceTable(found))
        }
        return InPlaceTablePlanKey(table: table.name, members: members, sources: sources)
    }
}

extension InPlaceTablePlanKey {
    /// Hashes a few cheap parts (equal keys have equal parts); `==` still compares everything,
    /// so a memo finds a plan only under an equal key.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(table)
        for member in members {
            hasher.combine(member.sourceName)
            hasher.combine(member.source?.attributes.count)
            hasher.combine(member.table)
            hasher.combine(member.keepsNumber)
        }
        for source in sources {
            hasher.combine(source.layout.columns.count)
            hasher.combine(source.feeders.count)
        }
    }
}
