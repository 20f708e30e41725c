/// Everything `InPlaceTablePlanner.plan(_:)` reads to plan one destination table, so that two
/// steps whose inputs for that table are equal can share the plan's outcome (a long history's
/// direct jumps to the last version re-plan mostly equal tables). Two planners give equal keys
/// for a table only when `plan(_:)` reads equal values in both, but for the entity numbers'
/// values, which only the plan's SQL text (`entityCases`, the `Z_ENT` fill's value) holds: its
/// sources, blockers, added, filled, deferrable and pending columns are then equal. Read: the
/// destination table; for each of its entities the source entity it is filled from, whether
/// both entity numbers are known and whether the number stays; each
/// source table found (its predicted layout, the live table standing for it, the numbers of
/// its entities, and which of its columns' entities and relationships the step keeps); and for
/// each destination column the destination and source attribute or relationship it maps.
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
        var source: String?
        var hasOldNumber: Bool
        var hasNewNumber: Bool
        var keepsNumber: Bool
        var table: String?
    }

    struct SourceTable: Hashable, Sendable {
        var layout: StoreLayout.Table
        var liveName: String
        var liveColumns: [String]
        /// Whether `live.entityNumbers` knows each entity of the table, in the layout's order.
        var numbered: [Bool]
        /// Per column role with an entity: kept entity, kept to-one, kept relationship.
        var kept: [UInt8]
    }

    struct ColumnSide: Hashable, Sendable {
        var destinationAttribute: Attribute?
        var destinationRelationship: Relationship?
        var sourceAttribute: String?
        var sourceAttributeValue: Attribute?
        var sourceRelationship: String?
        var sourceRelationshipValue: Relationship?
    }

    var table: StoreLayout.Table
    var members: [Member]
    var sources: [SourceTable]
    var columns: [ColumnSide]
}

extension InPlaceTablePlanner {
    /// The key of `plan(table)` (see `InPlaceTablePlanKey`).
    package func planKey(_ table: StoreLayout.Table) -> InPlaceTablePlanKey {
        var members: [InPlaceTablePlanKey.Member] = []
        var sourceNames: [String] = []
        var sources: [InPlaceTablePlanKey.SourceTable] = []
        for member in table.entities {
            let old = mapping.entitySource[member]
            let found = old.flatMap { sourceLayout.table(holding: $0) }
            let oldNumber = old.flatMap { live.entityNumbers[$0] }
            let newNumber = layout.entity(named: member)?.number
            members.append(.init(source: old, hasOldNumber: oldNumber != nil, hasNewNumber: newNumber != nil,
                                 keepsNumber: oldNumber == newNumber, table: found?.name))
            guard let found, !sourceNames.contains(found.name) else { continue }
            sourceNames.append(found.name)
            let liveTable = live.table(found.name)
            var kept: [UInt8] = []
            for column in found.columns {
                let pair: (String, String?)
                switch column.role {
                case .primaryKey, .entityNumber, .optimisticLock: continue
                case .attribute(let entity, _, _): pair = (entity, nil)
                case .toOne(let entity, let relationship, _), .toOneEntity(let entity, let relationship, _),
                     .orderKey(let entity, let relationship): pair = (entity, relationship)
                }
                var flags: UInt8 = keptEntities.contains(pair.0) ? 1 : 0
                if let relationship = pair.1 {
                    if keptToOnes.contains(pair.0 + "." + relationship) { flags |= 2 }
                    if keptRelationships.contains(pair.0 + "." + relationship) { flags |= 4 }
                }
                kept.append(flags)
            }
            sources.append(.init(layout: found, liveName: liveTable?.name ?? "", liveColumns: liveTable?.columns ?? [],
                                 numbered: found.entities.map { live.entityNumbers[$0] != nil }, kept: kept))
            if liveTable == nil { sources[sources.count - 1].liveName = "\u{0}" }
        }
        var columns: [InPlaceTablePlanKey.ColumnSide] = []
        columns.reserveCapacity(table.columns.count)
        for column in table.columns {
            var side = InPlaceTablePlanKey.ColumnSide()
            switch column.role {
            case .primaryKey, .entityNumber, .optimisticLock: break
            case .attribute(let entity, let name, _):
                side.destinationAttribute = destinationAttribute(entity, name).map(Self.unplaced)
                if let (owner, old) = mapping.sourceAttribute(of: entity, name) {
                    side.sourceAttribute = owner
                    side.sourceAttributeValue = Self.unplaced(old)
                }
            case .toOne(let entity, let name, _), .toOneEntity(let entity, let name, _), .orderKey(let entity, let name):
                side.destinationRelationship = destinationRelationship(entity, name).map(Self.unplaced)
                if let (owner, old) = mapping.sourceRelationship(of: entity, name) {
                    side.sourceRelationship = owner
                    side.sourceRelationshipValue = Self.unplaced(old)
                }
            }
            columns.append(side)
        }
        return InPlaceTablePlanKey(table: table, members: members, sources: sources, columns: columns)
    }

    /// The property without its place in the model file, which no plan reads (equal properties
    /// of two versions sit on different lines).
    static func unplaced(_ attribute: Attribute) -> Attribute {
        var copy = attribute
        copy.line = nil
        copy.column = nil
        return copy
    }

    static func unplaced(_ relationship: Relationship) -> Relationship {
        var copy = relationship
        copy.line = nil
        copy.column = nil
        return copy
    }
}

extension InPlaceTablePlanKey {
    /// Hashes a few cheap parts (equal keys have equal parts); `==` still compares everything,
    /// so a memo finds a plan only under an equal key. Hashing the properties' whole values
    /// cost more than most plans.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(table.name)
        hasher.combine(table.columns.count)
        for member in members {
            hasher.combine(member.source)
            hasher.combine(member.table)
            hasher.combine(member.keepsNumber)
        }
        for source in sources {
            hasher.combine(source.layout.columns.count)
            hasher.combine(source.liveColumns.count)
            hasher.combine(source.kept)
        }
        for column in columns {
            hasher.combine(column.sourceAttributeValue?.name)
            hasher.combine(column.sourceAttributeValue?.isOptional)
            hasher.combine(column.sourceRelationshipValue?.name)
        }
    }
}
