import ChainPlanReaders
import Foundation

/// The SQLite schema Core Data creates for a model version, as far as it is known.
///
/// Rules (reference part 2 §5, checked against the corpus stores):
/// - Entities are numbered from 1 in a depth-first walk of the inheritance forest, roots
///   and children each in name order (Wire: `Message` 11, its children 12–17,
///   `MessageConfirmation` 18). `Z_SUPER` is the parent's number, 0 for a root.
/// - One table `Z<ROOT>` per inheritance root with `Z_PK`, `Z_ENT`, `Z_OPT`, then one
///   column `Z<NAME>` per stored (non-transient) attribute and to-one relationship of every
///   entity of the hierarchy. Names colliding case-insensitively get 1, 2, … appended.
/// - A to-one relationship whose destination has subentities also gets `Z<destENT>_<NAME>`
///   (the destination's `Z_ENT`; Wire's `ZREACTION.Z6_MESSAGE`).
/// - A to-one relationship whose inverse is an ordered to-many gets `Z_FOK_<NAME>`.
/// - A many-to-many pair gets a join table. With the two ends sorted by (entity number,
///   name of the relationship pointing at the end's entity): table `Z_<ent1><NAME2>`,
///   columns `Z_<ent1><NAME1>`, `Z_<ent2><NAME2>`, plus `Z_FOK_<ent><NAME>` for each side
///   whose relationship is ordered (Wire `Z_3OTHERACTIVEPARTICIPANTS`, Bear `Z_7TAGS`).
/// - Column types: INTEGER (integers, Boolean, keys), FLOAT (Float, Double), DECIMAL,
///   TIMESTAMP (Date), VARCHAR (String, URI), BLOB (Binary, Transformable, UUID).
///   Composite, Undefined and Object ID attributes have no known column and are skipped.
/// - Indexes: `<T>_Z_ENT_INDEX` for hierarchies, `<T>_<COL>_INDEX` for keys and indexed
///   attributes, `Z_<Entity>_UNIQUE_<a>_<b>` for uniqueness constraints,
///   `Z_<Entity>_<fetchIndex>` for fetch indexes.
/// Collision suffixes are not always predictable (Core Data sometimes numbers join columns
/// across tables); structural comparison strips trailing digits for that reason.
package struct StoreLayout: Sendable, Hashable {
    /// One `Z_PRIMARYKEY` row Core Data would write.
    package struct EntitySlot: Sendable, Hashable {
        /// `Z_ENT`.
        package var number: Int
        package var name: String
        /// `Z_SUPER` (0 for a root).
        package var superNumber: Int
        package var rootName: String
        package var isAbstract: Bool
    }

    /// What a column stores.
    package enum ColumnRole: Sendable, Hashable {
        /// `Z_PK`.
        case primaryKey
        /// `Z_ENT`.
        case entityNumber
        /// `Z_OPT`.
        case optimisticLock
        /// A stored attribute of `entity`.
        case attribute(entity: String, name: String, type: AttributeType)
        /// A to-one foreign key holding the destination's `Z_PK`.
        case toOne(entity: String, relationship: String, destination: String)
        /// The destination's `Z_ENT`, for destinations with subentities.
        case toOneEntity(entity: String, relationship: String, destination: String)
        /// The position in an ordered to-many inverse.
        case orderKey(entity: String, relationship: String)
    }

    /// A column name, its declared type and its role.
    package struct Column: Sendable, Hashable {
        package var name: String
        package var sqlType: String
        package var role: ColumnRole
    }

    /// The table of one inheritance hierarchy.
    package struct Table: Sendable, Hashable {
        package var name: String
        package var rootEntity: String
        /// The hierarchy's entities, depth-first (the root first).
        package var entities: [String]
        package var columns: [Column]
    }

    /// One end of a many-to-many join table: the entity whose `Z_PK` the column holds.
    package struct JoinEnd: Sendable, Hashable {
        package var entity: String
        package var entityNumber: Int
        /// The relationship (declared on the other end's entity) pointing at `entity`.
        package var relationship: String
        package var column: String
        /// `Z_FOK_…` when that relationship is ordered.
        package var orderColumn: String?
    }

    /// A many-to-many join table.
    package struct JoinTable: Sendable, Hashable {
        package var name: String
        package var first: JoinEnd
        package var second: JoinEnd
    }

    /// An index Core Data creates.
    package struct Index: Sendable, Hashable {
        package var name: String
        package var table: String
        package var columns: [String]
        package var isUnique: Bool
    }

    /// Entities in `Z_ENT` order.
    package var entities: [EntitySlot] { didSet { slotByName = Self.firstPositions(entities.map(\.name)) } }
    /// Entity tables, one per root, roots in name order.
    package var tables: [Table] { didSet { tableByEntity = Self.tablePositions(tables) } }
    package var joinTables: [JoinTable]
    package var indexes: [Index]
    /// Entity name → position in `entities` (the first of a name), and → position in `tables`
    /// of the first table holding it: look-ups per entity stay constant-time in a model of
    /// thousands of entities.
    private var slotByName: [String: Int] = [:]
    private var tableByEntity: [String: Int] = [:]

    /// Derives the layout of `model`. Total on any input: duplicate entity names keep the
    /// first, unknown or cyclic parents make an entity a root, dangling relationships are
    /// skipped.
    package init(model: ObjectModel) {
        var byName: [String: Entity] = Dictionary(minimumCapacity: model.entities.count)
        var order: [String] = []
        order.reserveCapacity(model.entities.count)
        for entity in model.entities where byName[entity.name] == nil {
            byName[entity.name] = entity
            order.append(entity.name)
        }
        // Parent links that lead to a real root (cycles and unknown parents become roots).
        var parentOf: [String: String] = [:]
        for name in order {
            guard let parent = byName[name]?.parentEntity, byName[parent] != nil, parent != name else { continue }
            parentOf[name] = parent
        }
        for name in order {
            var seen: Set<String> = [name]
            var current = name
            while let parent = parentOf[current] {
                if !seen.insert(parent).inserted {
                    parentOf[current] = nil
                    break
                }
                current = parent
            }
        }
        var children: [String: [String]] = [:]
        for name in order {
            if let parent = parentOf[name] { children[parent, default: []].append(name) }
        }
        let roots = order.filter { parentOf[$0] == nil }.sorted()

        // Depth-first numbering, iterative (no recursion on hostile depth).
        var slots: [EntitySlot] = []
        var numberOf: [String: Int] = [:]
        var rootOf: [String: String] = [:]
        var hierarchy: [String: [String]] = [:]
        for root in roots {
            var stack = [root]
            while let name = stack.popLast() {
                let number = slots.count + 1
                numberOf[name] = number
                rootOf[name] = root
                hierarchy[root, default: []].append(name)
                slots.append(EntitySlot(
                    number: number, name: name, superNumber: parentOf[name].flatMap { numberOf[$0] } ?? 0,
                    rootName: root, isAbstract: byName[name]?.isAbstract ?? false))
                stack.append(contentsOf: (children[name] ?? []).sorted().reversed())
            }
        }
        self.entities = slots

        func ancestry(_ name: String) -> [String] {
            var chain: [String] = []
            var current: String? = name
            while let value = current, chain.count <= order.count {
                chain.append(value)
                current = parentOf[value]
            }
            return chain
        }
        /// Each entity's relationships by name (the first of a name), indexed on first use: an
        /// entity with thousands of to-ones looks up each one's inverse in constant time.
        var relationshipsByName: [String: [String: Relationship]] = [:]
        func relationships(of entity: String) -> [String: Relationship] {
            if let known = relationshipsByName[entity] { return known }
            var index: [String: Relationship] = [:]
            for relationship in byName[entity]?.relationships ?? [] where index[relationship.name] == nil {
                index[relationship.name] = relationship
            }
            relationshipsByName[entity] = index
            return index
        }
        /// A relationship by name on `entity` or an ancestor (the entities `ancestry` lists,
        /// walked without listing them).
        func relationship(_ name: String?, on entity: String?) -> Relationship? {
            guard let name, let entity else { return nil }
            var current: String? = entity
            var walked = 0
            while let ancestor = current, walked <= order.count {
                if let found = relationships(of: ancestor)[name] { return found }
                walked += 1
                current = parentOf[ancestor]
            }
            return nil
        }

        var tables: [Table] = []
        var indexes: [Index] = []
        var usedTableNames: Set<String> = []
        for root in roots {
            let members = hierarchy[root] ?? [root]
            let tableName = Self.unique("Z" + root.uppercased(), in: &usedTableNames)
            // Sized for every column at once (a table of hundreds of columns rehashed as it grew).
            let expected = members.reduce(3) { count, member in
                count + (byName[member].map { $0.attributes.count + 3 * $0.relationships.count } ?? 0)
            }
            var used: Set<String> = Set(minimumCapacity: expected)
            used.formUnion(["Z_PK", "Z_ENT", "Z_OPT"])
            var ranked: [(rank: Int, sequence: Int, column: Column)] = []
            ranked.reserveCapacity(expected)
            var sequence = 0
            func add(_ base: String, _ type: String, _ role: ColumnRole, rank: Int) -> String {
                let name = Self.unique(base, in: &used)
                ranked.append((rank, sequence, Column(name: name, sqlType: type, role: role)))
                sequence += 1
                return name
            }
            var columnOfProperty: [String: [String: String]] = [:]
            // Columns by property are read only for uniqueness constraints and fetch indexes.
            let indexesByProperty = members.contains { member in
                byName[member].map { !$0.uniquenessConstraints.isEmpty || !$0.fetchIndexes.isEmpty } ?? false
            }
            var foreignKeys: [String] = []
            for member in members {
                guard let entity = byName[member] else { continue }
                for attribute in entity.attributes where !attribute.isTransient {
                    guard let type = Self.sqlType(of: attribute.type) else { continue }
                    let column = add("Z" + attribute.name.uppercased(), type,
                                     .attribute(entity: member, name: attribute.name, type: attribute.type),
                                     rank: Self.rank(ofSQLType: type))
                    if indexesByProperty { columnOfProperty[member, default: [:]][attribute.name] = column }
                    if attribute.isIndexed {
                        indexes.append(Index(name: "\(tableName)_\(column)_INDEX", table: tableName, columns: [column], isUnique: false))
                    }
                }
                for link in entity.relationships where !link.isTransient && !link.isToMany {
                    guard let destination = link.destinationEntity, byName[destination] != nil else { continue }
                    let column = add("Z" + link.name.uppercased(), "INTEGER",
                                     .toOne(entity: member, relationship: link.name, destination: destination), rank: 1)
                    if indexesByProperty { columnOfProperty[member, default: [:]][link.name] = column }
                    foreignKeys.append(column)
                    if !(children[destination] ?? []).isEmpty, let number = numberOf[destination] {
                        _ = add("Z\(number)_" + link.name.uppercased(), "INTEGER",
                                .toOneEntity(entity: member, relationship: link.name, destination: destination), rank: 1)
                    }
                    let inverse = relationship(link.inverseName, on: link.inverseEntity ?? destination)
                    if let inverse, inverse.isToMany, inverse.isOrdered, !inverse.isTransient {
                        _ = add("Z_FOK_" + link.name.uppercased(), "INTEGER",
                                .orderKey(entity: member, relationship: link.name), rank: 2)
                    }
                }
            }
            ranked.sort { ($0.rank, $0.sequence) < ($1.rank, $1.sequence) }
            let columns = [
                Column(name: "Z_PK", sqlType: "INTEGER", role: .primaryKey),
                Column(name: "Z_ENT", sqlType: "INTEGER", role: .entityNumber),
                Column(name: "Z_OPT", sqlType: "INTEGER", role: .optimisticLock),
            ] + ranked.map(\.column)
            tables.append(Table(name: tableName, rootEntity: root, entities: members, columns: columns))

            if members.count > 1 {
                indexes.append(Index(name: "\(tableName)_Z_ENT_INDEX", table: tableName, columns: ["Z_ENT"], isUnique: false))
            }
            for column in foreignKeys {
                indexes.append(Index(name: "\(tableName)_\(column)_INDEX", table: tableName, columns: [column], isUnique: false))
            }
            for member in members where indexesByProperty {
                guard let entity = byName[member], !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty else { continue }
                var visible: [String: String] = [:]
                for ancestor in ancestry(member).reversed() {
                    visible.merge(columnOfProperty[ancestor] ?? [:]) { _, new in new }
                }
                for constraint in entity.uniquenessConstraints {
                    let columns = constraint.compactMap { visible[$0] }
                    guard !columns.isEmpty, columns.count == constraint.count else { continue }
                    indexes.append(Index(name: "Z_\(member)_UNIQUE_" + constraint.joined(separator: "_"),
                                         table: tableName, columns: columns, isUnique: true))
                }
                for fetchIndex in entity.fetchIndexes where !fetchIndex.elements.isEmpty {
                    let columns = fetchIndex.elements.compactMap { $0.property.flatMap { visible[$0] } }
                    guard columns.count == fetchIndex.elements.count,
                          !fetchIndex.elements.contains(where: { $0.type?.lowercased() == "rtree" }) else { continue }
                    indexes.append(Index(name: "Z_\(member)_\(fetchIndex.name)", table: tableName, columns: columns, isUnique: false))
                }
            }
        }

        // Many-to-many join tables, one per pair.
        var joinTables: [JoinTable] = []
        var seenPairs: Set<[String]> = []
        for name in order {
            guard let entity = byName[name], let number = numberOf[name] else { continue }
            for link in entity.relationships where link.isToMany && !link.isTransient {
                guard let destination = link.destinationEntity, let destinationNumber = numberOf[destination],
                      let inverse = relationship(link.inverseName, on: link.inverseEntity ?? destination),
                      inverse.isToMany, !inverse.isTransient
                else { continue }
                let inverseOwner = ancestry(link.inverseEntity ?? destination).first { relationships(of: $0)[inverse.name] != nil } ?? destination
                let pair = ["\(name).\(link.name)", "\(inverseOwner).\(inverse.name)"].sorted()
                guard seenPairs.insert(pair).inserted else { continue }
                // End A: this entity's rows, pointed at by the inverse; end B: the destination's rows.
                var ends = [
                    (number: number, entity: name, relationship: inverse),
                    (number: destinationNumber, entity: destination, relationship: link),
                ]
                ends.sort { ($0.number, $0.relationship.name.uppercased()) < ($1.number, $1.relationship.name.uppercased()) }
                let first = ends[0]
                let second = ends[1]
                let tableName = Self.unique("Z_\(first.number)" + second.relationship.name.uppercased(), in: &usedTableNames)
                var used: Set<String> = []
                func end(_ side: (number: Int, entity: String, relationship: Relationship)) -> JoinEnd {
                    let suffix = "\(side.number)" + side.relationship.name.uppercased()
                    let column = Self.unique("Z_" + suffix, in: &used)
                    let order = side.relationship.isOrdered ? Self.unique("Z_FOK_" + suffix, in: &used) : nil
                    return JoinEnd(entity: side.entity, entityNumber: side.number, relationship: side.relationship.name,
                                   column: column, orderColumn: order)
                }
                let firstEnd = end(first)
                let secondEnd = end(second)
                joinTables.append(JoinTable(name: tableName, first: firstEnd, second: secondEnd))
                indexes.append(Index(name: "\(tableName)_\(secondEnd.column)_INDEX", table: tableName,
                                     columns: [secondEnd.column], isUnique: false))
            }
        }
        self.tables = tables
        self.joinTables = joinTables
        self.indexes = indexes
        slotByName = Self.firstPositions(slots.map(\.name))
        tableByEntity = Self.tablePositions(tables)
    }

    /// The slot of an entity by name.
    package func entity(named name: String) -> EntitySlot? { slotByName[name].map { entities[$0] } }

    /// The first table holding `entity` (an entity's hierarchy table).
    package func table(holding entity: String) -> Table? { tableByEntity[entity].map { tables[$0] } }

    private static func firstPositions(_ names: [String]) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil { positions[name] = position }
        return positions
    }

    private static func tablePositions(_ tables: [Table]) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (position, table) in tables.enumerated() {
            for entity in table.entities where positions[entity] == nil { positions[entity] = position }
        }
        return positions
    }

    /// The column type Core Data uses for an attribute type, nil when unknown.
    package static func sqlType(of type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .date: "TIMESTAMP"
        case .string, .uri: "VARCHAR"
        case .binary, .transformable, .uuid: "BLOB"
        case .undefined, .objectID, .composite, .other: nil
        }
    }

    /// Column order observed in real stores: integers, keys, order keys, dates and floats,
    /// strings, blobs.
    static func rank(ofSQLType type: String) -> Int {
        switch type {
        case "INTEGER": 0
        case "TIMESTAMP", "FLOAT", "DECIMAL": 3
        case "VARCHAR": 4
        default: 5
        }
    }

    /// `base`, or `base1`, `base2`, … when taken (case-insensitive).
    static func unique(_ base: String, in used: inout Set<String>) -> String {
        var candidate = base
        var suffix = 1
        // Upper-cased once per candidate (every base is upper-cased already, so usually free).
        while !used.insert(upperCased(candidate)).inserted {
            candidate = base + String(suffix)
            suffix += 1
        }
        return candidate
    }

    /// `text.uppercased()`, without building a new string when `text` is ASCII with no lower-case letter.
    private static func upperCased(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x61 || ($0 > 0x7A && $0 < 0x80) } ? text : text.uppercased()
    }
}
