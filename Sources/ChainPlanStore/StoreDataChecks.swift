import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
import Foundation
import GRDB

/// The data of a migrated copy checked against the destination model: what Core Data would
/// refuse when it validates the migrated objects (CP304). Only rules the step introduces are
/// checked — a store saved by Core Data already satisfied its own model's.
///
/// - an attribute that becomes non-optional (new, or optional before) without a default
///   value: rows where it is NULL;
/// - a new uniqueness constraint: rows beyond the first of each group of equal values (rows
///   with a NULL in the constraint are not compared, as in SQL);
/// - a new or changed minimum or maximum: numbers (and dates) outside the range, strings
///   whose length is outside it;
/// - a to-one relationship that becomes required: rows without a destination.
///
/// Counts only. Values appear (at most three per finding) only with `showValues`: stores hold
/// users' personal data.
struct StoreDataChecks {
    struct Violation {
        var message: String
        /// The unique index that cannot be built because of duplicates.
        var uniqueIndex: String?
        /// True for a rule the in-place (inferred) migration does not check (min/max, §5): the
        /// rows migrate, and the first save that touches them fails validation.
        var failsAtNextSave = false
    }

    let db: Database
    let layout: StoreLayout
    let mapping: StepMapping
    let showValues: Bool
    static let sampleLimit = 3

    private func q(_ name: String) -> String { StoreReader.quote(name) }

    func run() throws -> [Violation] {
        var violations: [Violation] = []
        for entity in mapping.destination.entities.sorted(by: { $0.name < $1.name }) {
            guard let table = layout.tables.first(where: { $0.entities.contains(entity.name) }) else { continue }
            let numbers = mapping.destinationLineage(entity.name).compactMap { layout.entity(named: $0)?.number }
            guard !numbers.isEmpty else { continue }
            let rows = "\(q(table.name)) WHERE Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"
            let label = "'\(entity.name)'"

            for attribute in entity.entity.attributes where !attribute.isTransient {
                guard let column = table.columns.first(where: { $0.role == .attribute(entity: entity.name, name: attribute.name, type: attribute.type) })?.name
                else { continue }
                let old = mapping.sourceAttribute(of: entity.name, attribute.name)?.attribute
                if !attribute.isOptional, old?.isOptional ?? true, InPlaceTablePlan.literal(attribute) == nil {
                    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(rows) AND \(q(column)) IS NULL") ?? 0
                    if count > 0 {
                        let why = old == nil ? "a new non-optional attribute without a default value" : "which becomes non-optional without a default value"
                        violations.append(.init(message: "\(Self.rows(count)) of \(label) \(count == 1 ? "has" : "have") no '\(attribute.name)', \(why)"))
                    }
                }
                if let range = Self.range(attribute), old.map({ Self.range($0) != range }) ?? true {
                    let value = attribute.type == .string ? "length(\(q(column)))" : q(column)
                    var outside: [String] = []
                    if let low = range.low { outside.append("\(value) < \(Self.number(low))") }
                    if let high = range.high { outside.append("\(value) > \(Self.number(high))") }
                    let condition = "\(rows) AND \(q(column)) IS NOT NULL AND (\(outside.joined(separator: " OR ")))"
                    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(condition)") ?? 0
                    if count > 0 {
                        let bounds = switch (range.low, range.high) {
                        case (let low?, let high?): "outside the new range \(Self.number(low))…\(Self.number(high))"
                        case (let low?, nil): "under the new minimum \(Self.number(low))"
                        default: "over the new maximum \(range.high.map(Self.number) ?? "")"
                        }
                        let measure = attribute.type == .string ? "a length of '\(attribute.name)'" : "'\(attribute.name)'"
                        let samples = try showValues ? sample("SELECT \(q(column)) FROM \(condition)") : ""
                        violations.append(.init(message: "\(Self.rows(count)) of \(label) \(count == 1 ? "has" : "have") \(measure) \(bounds)\(samples); "
                                                    + "an in-place migration checks only mandatory values, so they migrate and fail validation at the next save that touches them",
                                                failsAtNextSave: true))
                    }
                }
            }

            for relationship in entity.entity.relationships where !relationship.isTransient && !relationship.isToMany && relationship.isMandatory {
                guard let column = table.columns.first(where: {
                    if case .toOne(entity.name, relationship.name, _) = $0.role { true } else { false }
                })?.name else { continue }
                let old = mapping.sourceRelationship(of: entity.name, relationship.name)?.relationship
                guard !(old?.isMandatory ?? false) else { continue }
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(rows) AND \(q(column)) IS NULL") ?? 0
                if count > 0 {
                    violations.append(.init(message: "\(Self.rows(count)) of \(label) \(count == 1 ? "has" : "have") no '\(relationship.name)', a to-one relationship that becomes required"))
                }
            }

            let previous = previousConstraints(of: entity.name)
            for constraint in entity.entity.uniquenessConstraints where !constraint.isEmpty && !previous.contains(Set(constraint)) {
                let columns = constraint.compactMap { column(for: $0, of: entity.name, in: table) }
                guard columns.count == constraint.count else { continue }
                let list = columns.map(q).joined(separator: ", ")
                let groups = "SELECT \(list), COUNT(*) AS n FROM \(rows) AND " + columns.map { "\(q($0)) IS NOT NULL" }.joined(separator: " AND ")
                    + " GROUP BY \(list) HAVING COUNT(*) > 1"
                let count = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(n - 1), 0) FROM (\(groups))") ?? 0
                if count > 0 {
                    let samples = try showValues ? sample("SELECT \(columns.count == 1 ? q(columns[0]) : "'(' || " + columns.map { "quote(\(q($0)))" }.joined(separator: " || ', ' || ") + " || ')'") FROM (\(groups))") : ""
                    violations.append(.init(
                        message: "\(Self.rows(count)) of \(label) duplicate\(count == 1 ? "s" : "") another's (\(constraint.map { "'\($0)'" }.joined(separator: ", "))) under the new uniqueness constraint; its unique index cannot be built\(samples)",
                        uniqueIndex: "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_")))
                }
            }
        }
        return violations
    }

    private static func rows(_ count: Int) -> String {
        count == 1 ? "1 row" : "\(NumberText.grouped(count)) rows"
    }

    /// `150` rather than `150.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The source entity's constraints, in destination property names.
    private func previousConstraints(of entity: String) -> Set<Set<String>> {
        guard let old = mapping.entitySource[entity], let resolved = mapping.source.entity(named: old),
              let destination = mapping.destination.entity(named: entity) else { return [] }
        var newName: [String: String] = [:]
        for attribute in destination.attributes {
            if let source = mapping.sourceAttribute(of: entity, attribute.name) { newName[source.attribute.name] = attribute.name }
        }
        for relationship in destination.relationships {
            if let source = mapping.sourceRelationship(of: entity, relationship.name) { newName[source.relationship.name] = relationship.name }
        }
        var constraints = resolved.entity.uniquenessConstraints
        for ancestor in resolved.ancestors { constraints += mapping.source.entity(named: ancestor)?.entity.uniquenessConstraints ?? [] }
        return Set(constraints.map { Set($0.map { newName[$0] ?? "\u{0}" + $0 }) })
    }

    /// The column of attribute or to-one relationship `name` as seen from `entity` (inherited included).
    private func column(for name: String, of entity: String, in table: StoreLayout.Table) -> String? {
        let owner = mapping.destination.entity(named: entity)?.inheritedFrom[name] ?? entity
        return table.columns.first { column in
            switch column.role {
            case .attribute(owner, name, _), .toOne(owner, name, _): true
            default: false
            }
        }?.name
    }

    /// Up to `sampleLimit` values of the query's first column, as ` (e.g. …)`.
    private func sample(_ sql: String) throws -> String {
        let values = try DatabaseValue.fetchAll(db, sql: sql + " LIMIT \(Self.sampleLimit)").map { value -> String in
            switch value.storage {
            case .null: return "NULL"
            case .int64(let number): return String(number)
            case .double(let number): return String(number)
            case .string(let text): return "'" + String(text.prefix(40)) + (text.count > 40 ? "…" : "") + "'"
            case .blob(let data): return "<\(data.count) bytes>"
            }
        }
        return values.isEmpty ? "" : " (e.g. " + values.joined(separator: ", ") + ")"
    }

    /// A numeric range: min/max values for numbers, intervals for dates, lengths for strings.
    struct Range: Equatable {
        var low: Double?
        var high: Double?
    }

    static func range(_ attribute: Attribute) -> Range? {
        let low: String?
        let high: String?
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .string:
            (low, high) = (attribute.minValueString, attribute.maxValueString)
        case .date:
            (low, high) = (attribute.minDateTimeInterval, attribute.maxDateTimeInterval)
        default:
            return nil
        }
        let range = Range(low: low.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite ? $0 : nil },
                          high: high.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite ? $0 : nil })
        return range.low == nil && range.high == nil ? nil : range
    }
}
