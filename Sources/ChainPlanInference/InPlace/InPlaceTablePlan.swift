import ChainPlanReaders
/// Why the in-place migrator would rebuild a table, when the cause is one of the three that
/// `NSPersistentStoreDeferredLightweightMigrationOptionKey` turns into a column rename
/// (reference §7.2).
public enum DeferredCause: String, Sendable, Hashable, Codable, CaseIterable {
    /// An attribute removed from an entity that still exists.
    case attributeRemoved = "attribute-removed"
    /// A to-one whose old destination had sub-entities and whose new one has none: its
    /// entity-type column (`Z<n>_<NAME>`) goes.
    case entityColumnRemoved = "entity-column-removed"
    /// A to-one whose order column (`Z_FOK_<NAME>`) goes: the inverse to-many became unordered.
    case orderColumnRemoved = "order-column-removed"
}

/// How Core Data's in-place migrator (reference §5, §7.2) treats one destination entity table of
/// a step, decided from the source table's columns — the live ones on a store copy, or the
/// predicted ones (`LiveSchema.predicted`) when only the models are known. The dry run's
/// simulator and the deferred-work analysis share this one decision.
package struct InPlaceTablePlan {
    /// A source table of the step: its predicted layout, and the table it is.
    package struct Source {
        package var layout: StoreLayout.Table
        package var live: LiveSchema.Table
        /// Predicted column role (without the attribute type) → the live column playing it.
        package var byRole: [RoleKey: String] = [:]
        /// Upper-cased live column → live column; upper-cased predicted column → predicted column.
        private var liveByUpper: [String: String] = [:]
        /// Live columns by name without collision number (`LiveSchema.withoutSuffix`): the first,
        /// and how many share it (a predicted name stands for one only when it is alone).
        private var liveBySuffixless: [String: (column: String, count: Int)] = [:]
        package var predictedByUpper: [String: StoreLayout.Column] = [:]
        /// Live column → its name upper-cased (SQLite compares names case-insensitively).
        private var upperByLive: [String: String] = [:]
        /// Live column → its quoted SQL name, and back.
        package var quoted: [String: String] = [:]
        package var unquoted: [String: String] = [:]

        package init(layout: StoreLayout.Table, live: LiveSchema.Table) {
            self.layout = layout
            self.live = live
            for name in live.columns {
                let upperName = name.uppercased()
                upperByLive[name] = upperName
                if liveByUpper[upperName] == nil { liveByUpper[upperName] = name }
            }
            for name in live.columns {
                let base = LiveSchema.withoutSuffix(name)
                liveBySuffixless[base] = liveBySuffixless[base].map { ($0.column, $0.count + 1) } ?? (name, 1)
            }
            for name in live.columns {
                let text = LiveSchema.quote(name)
                quoted[name] = text
                unquoted[text] = name
            }
            for column in layout.columns where predictedByUpper[column.name.uppercased()] == nil { predictedByUpper[column.name.uppercased()] = column }
            for column in layout.columns {
                guard let key = RoleKey(column.role), byRole[key] == nil, let found = liveColumn(column.name) else { continue }
                byRole[key] = found
            }
        }

        /// `LiveSchema.column(predicted, in: live.columns)`, both of its matches found by hashing
        /// (a step adding thousands of columns to a wide table would otherwise scan every live
        /// column for each added one).
        package func liveColumn(_ predicted: String) -> String? {
            liveColumn(predicted, upper: predicted.uppercased())
        }

        /// `name` upper-cased, made once per live column.
        package func upper(_ name: String) -> String { upperByLive[name] ?? name.uppercased() }

        /// `liveColumn(predicted)`, the name given upper-cased too.
        package func liveColumn(_ predicted: String, upper: String) -> String? {
            if let exact = liveByUpper[upper] { return exact }
            guard let (column, count) = liveBySuffixless[LiveSchema.withoutSuffix(predicted)], count == 1 else { return nil }
            return column
        }
    }

    /// A property column's role, the attribute type left out (a type change keeps the column).
    package struct RoleKey: Hashable {
        package var kind: UInt8
        package var entity: String
        package var name: String

        package init(kind: UInt8, entity: String, name: String) {
            self.kind = kind
            self.entity = entity
            self.name = name
        }

        package init?(_ role: StoreLayout.ColumnRole) {
            switch role {
            case .primaryKey, .entityNumber, .optimisticLock: return nil
            case .attribute(let entity, let name, _): self.init(kind: 0, entity: entity, name: name)
            case .toOne(let entity, let name, _): self.init(kind: 1, entity: entity, name: name)
            case .toOneEntity(let entity, let name, _): self.init(kind: 2, entity: entity, name: name)
            case .orderKey(let entity, let name): self.init(kind: 3, entity: entity, name: name)
            }
        }
    }

    /// Each source table feeding the destination table, with its (old, new) entity numbers.
    package var sources: [(source: Source, pairs: [(old: Int, new: Int)])] = []
    /// Per source, the SQL expression that maps its `Z_ENT` to the new numbers.
    package var entityCases: [String] = []
    /// Kept in place: columns to add, and values to fill (`Z_ENT` first when renumbered).
    package var add: [StoreLayout.Column] = []
    package var fill: [(column: String, value: String, onlyNulls: Bool)] = []
    /// Reasons the table is rebuilt now whatever the option says; empty when it can stay.
    package var blockers: [String] = []
    /// Source columns that go for one of the three deferrable causes.
    package var deferrable: [(column: String, cause: DeferredCause)] = []
    /// Columns already renamed by an earlier deferred migration (`_DEFERRED_…`): left alone by
    /// an in-place step, dropped by a rebuild.
    package var pending: [String] = []

    package static let deferredPrefix = "_DEFERRED_"

    /// Whether the table is created (no source rows feed it).
    package var isCreated: Bool { sources.isEmpty }

    /// Whether the table stays in place (ALTERs only, plus column renames when deferring).
    package func staysInPlace(deferring: Bool) -> Bool {
        !isCreated && blockers.isEmpty && (deferrable.isEmpty || deferring)
    }
}

/// Plans the destination entity tables of one step (see `InPlaceTablePlan`).
package struct InPlaceTablePlanner {
    package let mapping: StepMapping
    package let sourceLayout: StoreLayout
    package let layout: StoreLayout
    package let live: LiveSchema
    /// Source entities the destination keeps.
    let keptEntities: Set<String>
    /// `Entity.relationship` of source to-ones some destination to-one is filled from (read
    /// only when a source to-one's column goes: built on first use).
    var keptToOnes: Set<String> {
        if let known = sources.keptToOnes { return known }
        var toOnes: Set<String> = []
        for table in layout.tables {
            for column in table.columns {
                guard case .toOne(let e, let r, _) = column.role, let (owner, old) = mapping.sourceRelationship(of: e, r), !old.isToMany else { continue }
                toOnes.insert(owner + "." + old.name)
            }
        }
        sources.keptToOnes = toOnes
        return toOnes
    }
    /// `Entity.relationship` of source relationships some destination relationship is filled
    /// from (read only when a source to-one's column goes: built on first use).
    var keptRelationships: Set<String> {
        if let known = sources.keptRelationships { return known }
        var relationships: Set<String> = []
        for resolved in mapping.destination.entities {
            for link in resolved.relationships {
                guard let (owner, old) = mapping.sourceRelationship(of: resolved.name, link.name) else { continue }
                relationships.insert(owner + "." + old.name)
            }
        }
        sources.keptRelationships = relationships
        return relationships
    }
    /// Look-ups built on first use: source tables, destination properties, kept relationships
    /// (a planner serves one step on one thread).
    private let sources = SourceCache()

    private final class SourceCache {
        var table: [String: InPlaceTablePlan.Source] = [:]
        /// Destination entity → its attributes (relationships) by name.
        var destinationAttributes: [String: [String: Attribute]] = [:]
        var destinationRelationships: [String: [String: Relationship]] = [:]
        var keptToOnes: Set<String>?
        var keptRelationships: Set<String>?
    }

    package init(mapping: StepMapping, sourceLayout: StoreLayout, layout: StoreLayout, live: LiveSchema) {
        self.mapping = mapping
        self.sourceLayout = sourceLayout
        self.layout = layout
        self.live = live
        keptEntities = Set(mapping.entitySource.values)
    }

    private func q(_ name: String) -> String { LiveSchema.quote(name) }
    private func q(_ name: String, in source: InPlaceTablePlan.Source) -> String { source.quoted[name] ?? q(name) }

    package func sourceTable(of sourceEntity: String) -> InPlaceTablePlan.Source? {
        guard let table = sourceLayout.table(holding: sourceEntity),
              let live = live.table(table.name) else { return nil }
        // A source table's lookups are built once per planner, however many tables it feeds.
        if let cached = sources.table[live.name] { return cached }
        let source = InPlaceTablePlan.Source(layout: table, live: live)
        sources.table[live.name] = source
        return source
    }

    /// The live column of `source` playing a role (kind 0 attribute, 1 to-one, 2 its entity, 3 its order).
    private func column(in source: InPlaceTablePlan.Source, _ kind: UInt8, _ entity: String, _ name: String) -> String? {
        source.byRole[InPlaceTablePlan.RoleKey(kind: kind, entity: entity, name: name)]
    }

    /// The destination attribute a column stores (the first of its name on the resolved entity),
    /// each entity's attributes indexed by name on first use.
    package func destinationAttribute(_ entity: String, _ name: String) -> Attribute? {
        Self.indexed(name, of: entity, in: &sources.destinationAttributes, mapping.destination.entity(named:)) { $0.attributes.map { ($0.name, $0) } }
    }

    /// The destination relationship a column stores, indexed like `destinationAttribute`.
    package func destinationRelationship(_ entity: String, _ name: String) -> Relationship? {
        Self.indexed(name, of: entity, in: &sources.destinationRelationships, mapping.destination.entity(named:)) { $0.relationships.map { ($0.name, $0) } }
    }

    /// Property `name` of `entity` from `indexes`, the entity's properties (the first of each
    /// name) indexed there on first use. Closures, not key paths: a key path is read through the
    /// runtime at every call, and this runs once per column of every table planned.
    private static func indexed<Property>(_ name: String, of entity: String, in indexes: inout [String: [String: Property]],
                                          _ lookup: (String) -> ResolvedEntity?, _ named: (ResolvedEntity) -> [(String, Property)]) -> Property? {
        if let index = indexes[entity] { return index[name] }
        var index: [String: Property] = [:]
        for (key, property) in lookup(entity).map(named) ?? [] where index[key] == nil { index[key] = property }
        indexes[entity] = index
        return index[name]
    }

    /// The SELECT expression filling destination `column` from rows of `source`.
    package func expression(for column: StoreLayout.Column, from source: InPlaceTablePlan.Source, keyOffset: Int, entityCase: String) -> String {
        switch column.role {
        case .primaryKey:
            return keyOffset == 0 ? "Z_PK" : "Z_PK + \(keyOffset)"
        case .entityNumber:
            return entityCase
        case .optimisticLock:
            return source.liveColumn("Z_OPT").map(q) ?? "1"
        case .attribute(let entity, let name, _):
            let target = destinationAttribute(entity, name)
            // The default's literal only where it is written (it trims and parses the text).
            guard let (owner, old) = mapping.sourceAttribute(of: entity, name),
                  let found = self.column(in: source, 0, owner, old.name)
            else { return target.flatMap(InPlaceTablePlan.literal) ?? "NULL" }
            if let target, !target.isOptional, old.isOptional, let fill = InPlaceTablePlan.literal(target) {
                return "COALESCE(\(q(found, in: source)), \(fill))"
            }
            return q(found, in: source)
        case .toOne(let entity, let name, _):
            guard let (owner, old) = mapping.sourceRelationship(of: entity, name), !old.isToMany else { return "NULL" }
            return self.column(in: source, 1, owner, old.name).map { q($0, in: source) } ?? "NULL"
        case .toOneEntity(let entity, let name, _):
            guard let (owner, old) = mapping.sourceRelationship(of: entity, name) else { return "NULL" }
            return self.column(in: source, 2, owner, old.name).map { q($0, in: source) } ?? "NULL"
        case .orderKey(let entity, let name):
            guard let (owner, old) = mapping.sourceRelationship(of: entity, name) else { return "NULL" }
            return self.column(in: source, 3, owner, old.name).map { q($0, in: source) } ?? "NULL"
        }
    }

    /// The literal a COALESCE fill of `column` uses.
    private func fillLiteral(_ column: StoreLayout.Column) -> String? {
        guard case .attribute(let entity, let name, _) = column.role else { return nil }
        return destinationAttribute(entity, name).flatMap(InPlaceTablePlan.literal)
    }

    package func plan(_ table: StoreLayout.Table) -> InPlaceTablePlan {
        var plan = InPlaceTablePlan()
        for member in table.entities {
            guard let old = mapping.entitySource[member], let oldNumber = live.entityNumbers[old],
                  let newNumber = layout.entity(named: member)?.number else { continue }
            // A source table's lookups are built once, however many entities it feeds.
            // An entity lies in one table of a layout: the source holding it is the one of its table.
            let oldTable = sourceLayout.table(holding: old)?.name
            if let index = plan.sources.firstIndex(where: { $0.source.layout.name == oldTable }) {
                plan.sources[index].pairs.append((oldNumber, newNumber))
            } else if let source = sourceTable(of: old) {
                if let index = plan.sources.firstIndex(where: { $0.source.live.name == source.live.name }) {
                    plan.sources[index].pairs.append((oldNumber, newNumber))
                } else {
                    plan.sources.append((source, [(oldNumber, newNumber)]))
                }
            }
        }
        plan.entityCases = plan.sources.map { entry in
            "CASE Z_ENT " + entry.pairs.map { "WHEN \($0.old) THEN \($0.new)" }.joined(separator: " ") + " END"
        }
        guard let (source, pairs) = plan.sources.first else { return plan }
        // In place needs one source that is this table, and every entity of the source staying here.
        if plan.sources.count > 1 {
            plan.blockers.append("its rows come from \(plan.sources.count) tables (" + plan.sources.map(\.source.live.name).joined(separator: ", ") + ")")
            return plan
        }
        if source.live.name.uppercased() != table.name.uppercased() {
            plan.blockers.append("its rows come from table \(source.live.name)")
            return plan
        }
        let staying = Set(table.entities.compactMap { mapping.entitySource[$0] })
        for old in source.layout.entities where live.entityNumbers[old] != nil && !staying.contains(old) {
            plan.blockers.append("entity '\(old)' leaves the table (removed or moved)")
        }
        if !plan.blockers.isEmpty { return plan }

        // Columns: kept as they are, added (NULL or a default), filled where NULL, or rebuilt.
        var used: Set<String> = []
        var referenced: Set<String> = []
        let quoted = source.unquoted  // q(live column) → live column
        for column in table.columns {
            let value = expression(for: column, from: source, keyOffset: 0, entityCase: "Z_ENT")
            let operand = value.hasPrefix("COALESCE(") ? String(value.dropFirst("COALESCE(".count).prefix { $0 != "," }) : value
            if let found = quoted[operand] {
                referenced.insert(source.upper(found))
            }
            let upperName = column.name.uppercased()
            if let existing = source.liveColumn(column.name, upper: upperName), source.upper(existing) == upperName {
                used.insert(upperName)
                if column.role == .entityNumber || column.role == .primaryKey { continue }
                let existingQuoted = q(existing, in: source)
                if value == existingQuoted || value.hasPrefix("COALESCE(\(existingQuoted), ") {
                    if let change = typeChange(column, upper: upperName, in: source) {
                        plan.blockers.append("column \(column.name) changes type (\(change))")
                    } else if let mandatory = newlyMandatoryToOne(column) {
                        plan.blockers.append("to-one '\(mandatory)' becomes mandatory")
                    } else if value != existingQuoted, let literal = fillLiteral(column) {
                        plan.fill.append((existing, literal, true))
                    }
                    continue
                }
                plan.blockers.append(refilled(column, existing: existing, value: value, in: source))
            } else if value == "NULL" || InPlaceTablePlan.isLiteral(value) {
                plan.add.append(column)
                if value != "NULL" { plan.fill.append((column.name, value, false)) }
            } else if let found = quoted[value] {
                plan.blockers.append("column \(column.name) is copied from column \(found) (a renamed property)")
            } else {
                plan.blockers.append("column \(column.name) is copied from \(value)")
            }
        }
        // Source columns the destination no longer has: deferrable, pending, or a rebuild.
        var roleOf: [String: StoreLayout.ColumnRole] = [:]  // live column (upper-cased) → predicted role
        for column in source.layout.columns {
            if let found = source.liveColumn(column.name) {
                let upperFound = source.upper(found)
                if roleOf[upperFound] == nil { roleOf[upperFound] = column.role }
            }
        }
        for name in source.live.columns {
            let upperName = source.upper(name)
            guard !used.contains(upperName), !referenced.contains(upperName) else { continue }
            if upperName.hasPrefix(InPlaceTablePlan.deferredPrefix) {
                plan.pending.append(name)
                continue
            }
            guard let role = roleOf[upperName] else {
                plan.blockers.append("column \(name) is not in the source model")
                continue
            }
            switch classify(removed: role, column: name) {
            case .deferrable(let cause): plan.deferrable.append((name, cause))
            case .rebuild(let reason): plan.blockers.append(reason)
            case .followsAnother: break
            }
        }
        if pairs.contains(where: { $0.old != $0.new }) { plan.fill.insert(("Z_ENT", plan.entityCases[0], false), at: 0) }
        return plan
    }

    private enum Removal {
        case deferrable(DeferredCause)
        case rebuild(String)
        /// Goes with another column whose removal is reported (a removed to-one's entity or order column).
        case followsAnother
    }

    /// Why a source column without a destination counterpart goes.
    private func classify(removed role: StoreLayout.ColumnRole, column: String) -> Removal {
        switch role {
        case .primaryKey, .entityNumber, .optimisticLock:
            return .rebuild("column \(column) goes")
        case .attribute(let entity, let name, _):
            return keptEntities.contains(entity) ? .deferrable(.attributeRemoved)
                : .rebuild("entity '\(entity)' is removed: its column \(column) (attribute '\(name)') goes")
        case .toOneEntity(let entity, let relationship, _):
            return keptToOne(entity, relationship) ? .deferrable(.entityColumnRemoved) : .followsAnother
        case .orderKey(let entity, let relationship):
            return keptToOne(entity, relationship) ? .deferrable(.orderColumnRemoved) : .followsAnother
        case .toOne(let entity, let relationship, _):
            guard keptEntities.contains(entity) else {
                return .rebuild("entity '\(entity)' is removed: its column \(column) (to-one '\(relationship)') goes")
            }
            if keptRelationship(entity, relationship) {
                return .rebuild("to-one '\(entity).\(relationship)' becomes to-many: its foreign-key column \(column) goes")
            }
            return .rebuild("to-one '\(entity).\(relationship)' is removed: its foreign-key column \(column) goes "
                + "(rebuilt even with deferral: Core Data defers removed attributes only, though WWDC 2023 says relationship removals defer)")
        }
    }

    /// Whether some destination to-one is filled from source to-one `entity.relationship`.
    private func keptToOne(_ entity: String, _ relationship: String) -> Bool { keptToOnes.contains(entity + "." + relationship) }

    /// Whether any destination relationship is filled from source relationship `entity.relationship`.
    private func keptRelationship(_ entity: String, _ relationship: String) -> Bool { keptRelationships.contains(entity + "." + relationship) }

    /// The live source join table of a destination join table, with its live columns in the
    /// destination's order (first, second, first order, second order).
    package func sourceJoin(for join: StoreLayout.JoinTable) -> (LiveSchema.Table, [String?])? {
        // A destination end's relationship belongs to the other end's entity.
        func sourceEnd(_ end: StoreLayout.JoinEnd, other: StoreLayout.JoinEnd) -> (entity: String, relationship: String)? {
            guard let entity = mapping.entitySource[end.entity],
                  let relationship = mapping.sourceRelationship(of: other.entity, end.relationship)?.relationship.name else { return nil }
            return (entity, relationship)
        }
        guard let first = sourceEnd(join.first, other: join.second), let second = sourceEnd(join.second, other: join.first) else { return nil }
        for candidate in sourceLayout.joinTables {
            let ends: [StoreLayout.JoinEnd]
            if (candidate.first.entity, candidate.first.relationship) == first, (candidate.second.entity, candidate.second.relationship) == second {
                ends = [candidate.first, candidate.second]
            } else if (candidate.second.entity, candidate.second.relationship) == first, (candidate.first.entity, candidate.first.relationship) == second {
                ends = [candidate.second, candidate.first]
            } else {
                continue
            }
            guard let table = live.table(candidate.name) else { return nil }
            let columns = ends.map { LiveSchema.column($0.column, in: table.columns) }
                + ends.map { end in end.orderColumn.flatMap { LiveSchema.column($0, in: table.columns) } }
            return (table, columns)
        }
        return nil
    }

    /// Why a kept column name is rebuilt: it holds another property now (an attribute removed
    /// and a property of the same name added), or is filled from another column.
    private func refilled(_ column: StoreLayout.Column, existing: String, value: String, in source: InPlaceTablePlan.Source) -> String {
        guard let old = source.layout.columns.first(where: { LiveSchema.column($0.name, in: [existing]) != nil })?.role,
              old != column.role, case .attribute(let entity, let name, _) = old,
              Set(mapping.entitySource.values).contains(entity) else {
            return "column \(column.name) is refilled from \(value)"
        }
        return "column \(column.name) held attribute '\(entity).\(name)', removed, and now holds \(Self.describe(column.role)) "
            + "(whether deferral renames the old column and adds the new one instead of rebuilding is unverified: reference §7.3 [open])"
    }

    package static func describe(_ role: StoreLayout.ColumnRole) -> String {
        switch role {
        case .primaryKey: "the primary key"
        case .entityNumber: "the entity number"
        case .optimisticLock: "the optimistic lock"
        case .attribute(let entity, let name, _): "attribute '\(entity).\(name)'"
        case .toOne(let entity, let name, _): "to-one '\(entity).\(name)'"
        case .toOneEntity(let entity, let name, _): "the entity number of to-one '\(entity).\(name)'"
        case .orderKey(let entity, let name): "the order of to-one '\(entity).\(name)'"
        }
    }

    /// `A → B` when a kept column's SQL type changes (schema-equal changes, Integer 16 → 64 or
    /// Float → Double, keep the table: reference §5).
    private func typeChange(_ column: StoreLayout.Column, upper: String, in source: InPlaceTablePlan.Source) -> String? {
        guard let old = source.predictedByUpper[upper],
              old.sqlType != column.sqlType else { return nil }
        return "\(old.sqlType) → \(column.sqlType)"
    }

    /// `Entity.relationship` when destination to-one `column` is mandatory and its source was optional.
    private func newlyMandatoryToOne(_ column: StoreLayout.Column) -> String? {
        guard case .toOne(let entity, let name, _) = column.role,
              let target = destinationRelationship(entity, name),
              target.isMandatory, let (_, old) = mapping.sourceRelationship(of: entity, name), !old.isMandatory else { return nil }
        return "\(entity).\(name)"
    }
}

extension LiveSchema {
    /// The schema a store at `layout`'s model has, as Core Data creates it: for planning a step
    /// from the models alone.
    package static func predicted(_ layout: StoreLayout) -> LiveSchema {
        var schema = LiveSchema()
        for table in layout.tables {
            schema.tables[table.name.uppercased()] = Table(name: table.name, columns: table.columns.map(\.name))
        }
        for join in layout.joinTables {
            schema.tables[join.name.uppercased()] = Table(name: join.name, columns:
                [join.first.column, join.second.column] + [join.first.orderColumn, join.second.orderColumn].compactMap { $0 })
        }
        for slot in layout.entities {
            schema.entityNumbers[slot.name] = slot.number
        }
        return schema
    }
}

extension InPlaceTablePlan {
    /// SQLite text for a destination default value, or nil when it has none Core Data would write.
    package static func literal(_ attribute: Attribute) -> String? {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .boolean:
            guard let text = attribute.defaultValueString?.trimmingCharacters(in: .whitespaces) else { return nil }
            switch text.lowercased() {
            case "yes", "true": return "1"
            case "no", "false": return "0"
            default: return Int(text).map(String.init) ?? Double(text).map { String(Int(exactly: $0.rounded(.towardZero)) ?? 0) }
            }
        case .double, .float, .decimal:
            return attribute.defaultValueString.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                .flatMap { $0.isFinite ? "\($0)" : nil }
        case .date:
            return attribute.defaultDateTimeInterval.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                .flatMap { $0.isFinite ? "\($0)" : nil }
        case .string, .uri:
            guard let text = attribute.defaultValueString, !text.contains("\0") else { return nil }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        default:
            return nil
        }
    }

    /// True for the literals `literal(_:)` writes (numbers and quoted text).
    package static func isLiteral(_ expression: String) -> Bool {
        expression.hasPrefix("'") || Double(expression) != nil
    }
}
