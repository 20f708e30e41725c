import ChainPlanInference
import ChainPlanReaders
/// Plans the passes of one heavyweight step by the rules of reference §8.3:
/// - every kept source entity is mapped exactly once (`coverage`: an unmapped one is not migrated);
/// - the target of a mandatory relationship (or one with a minimum count) comes in the same pass
///   or an earlier one, so mutually dependent entities share a pass;
/// - a relationship that crosses passes is set in the later pass by fetching the earlier pass's
///   object from the destination by a unique key (a uniqueness constraint); when that entity has
///   none, the two passes are merged;
/// - sub-entities get their own entity mappings (the source fetch excludes sub-entities), and a
///   relationship to an entity may point at any of its sub-entities;
/// - with row counts, passes are packed up to the memory budget with the dry run's estimate
///   (`HeavyweightMemory`); without, every group the rules allow is a pass of its own.
///
/// Examples (PassPlannerTests runs them): `A` requires `B`, `B` requires `C` → passes `[C]`,
/// `[B]`, `[A]`; `A` and `B` require each other → one pass `[A, B]`; optional
/// `Registration.course` to `Course` with uniqueness constraint `code` → `[Course]`,
/// `[Registration]` and `fetch-by-key` `code`; without the constraint → one pass, `same-pass`.
package enum PassPlanner {
    /// The key an entity is matched by across versions (§4.1): its renaming identifier, else its
    /// name; an empty identifier is none (the inference's own key, `InferenceRules.key`).
    static func key(_ entity: Entity) -> String { InferenceRules.key(name: entity.name, renamingIdentifier: entity.renamingIdentifier) }

    /// The entity mappings a user needs without a mapping model: one per destination entity from
    /// the source entity with its key, named the way Xcode names them (`PersonToPerson`). An
    /// abstract source entity has no objects of its own (the fetch excludes sub-entities): none.
    package static func defaultEntityMappings(source: ObjectModel, destination: ObjectModel) -> [PassEntityMapping] {
        var sourceByKey: [String: String] = [:]
        for entity in source.entities where !entity.isAbstract && sourceByKey[key(entity)] == nil { sourceByKey[key(entity)] = entity.name }
        return destination.entities.compactMap { entity in
            guard let from = sourceByKey[key(entity)] else { return nil }
            return PassEntityMapping(name: "\(from)To\(entity.name)", source: from, destination: entity.name)
        }
    }

    /// Source entities the step keeps whose objects must be migrated: a destination entity has
    /// their key, and they are not abstract (an abstract entity has no objects of its own).
    package static func keptSourceEntities(source: ObjectModel, destination: ObjectModel) -> [String] {
        let keys = Set(destination.entities.map(key))
        return source.entities.filter { !$0.isAbstract && keys.contains(key($0)) }.map(\.name)
    }

    /// Coverage of `mappings` over the kept source entities.
    package static func coverage(source: ObjectModel, destination: ObjectModel, mappings: [PassEntityMapping]) -> PassPlan.Coverage {
        let read = Set(mappings.compactMap(\.source))
        var pairs: [String: Int] = [:]
        for mapping in mappings {
            guard let from = mapping.source, let to = mapping.destination else { continue }
            pairs["\(from)\u{0}\(to)", default: 0] += 1
        }
        let twice = Set(mappings.filter { mapping in
            guard let from = mapping.source, let to = mapping.destination else { return false }
            return (pairs["\(from)\u{0}\(to)"] ?? 0) > 1
        }.compactMap(\.source))
        let kept = keptSourceEntities(source: source, destination: destination)
        return PassPlan.Coverage(unmapped: kept.filter { !read.contains($0) }, mappedTwice: source.entities.map(\.name).filter { twice.contains($0) })
    }

    /// Plans the step from `source` to `destination` with `mappings`. `rows`: per source entity,
    /// from a store; `maxMemoryBytes`: the budget passes are packed under (a group the rules do
    /// not allow to split may still exceed it).
    package static func plan(source: ObjectModel, destination: ObjectModel, mappings: [PassEntityMapping],
                            rows: [String: PassRows]? = nil, maxMemoryBytes: Int? = nil) -> PassPlan {
        let graph = PassGraph(destination: destination, mappings: mappings)
        let created = graph.created
        func size(_ names: [String]) -> (objects: Int, bytes: Int)? {
            guard let rows else { return nil }
            var seen: Set<String> = []
            var objects = 0, bytes = 0
            for name in names {
                for mapping in graph.mappingsOf[name] ?? [] {
                    guard let from = mapping.source, seen.insert(from).inserted, let count = rows[from] else { continue }
                    objects += count.rows
                    bytes += HeavyweightMemory.estimate(rows: count.rows, averageRowBytes: count.averageRowBytes)
                }
            }
            return (objects, bytes)
        }
        var edges = graph.mandatory
        var merged: [PassPlan.CrossPass] = []
        var passes: [PassPlan.Pass] = []
        var crossing: [PassPlan.CrossPass] = []
        // Each round: mutually dependent entities (strongly connected over the mandatory
        // relationships and the merges so far) form a group; groups come targets first and are
        // packed under the budget; every relationship across passes whose earlier side has no
        // unique key merges the two, and the round is planned again. Every round joins groups, so
        // it ends.
        while true {
            let groupOf = StronglyConnected.components(edges)
            var members = Array(repeating: [Int](), count: (groupOf.max() ?? -1) + 1)
            for (node, group) in groupOf.enumerated() { members[group].append(node) }
            var packed: [[Int]] = []
            for group in members where !group.isEmpty {
                if let budget = maxMemoryBytes, rows != nil, let last = packed.last,
                   let total = size((last + group).map { created[$0] }), total.bytes <= budget {
                    packed[packed.count - 1] += group
                } else {
                    packed.append(group)
                }
            }
            var passOf = Array(repeating: 0, count: created.count)
            passes = packed.enumerated().map { number, group in
                let entities = group.sorted().map { created[$0] }
                for node in group { passOf[node] = number }
                let measured = size(entities)
                return PassPlan.Pass(entities: entities, entityMappings: entities.flatMap { (graph.mappingsOf[$0] ?? []).map(\.name) },
                                     objects: measured?.objects, memoryBytes: measured?.bytes)
            }
            crossing = []
            var merging = false
            for link in graph.links where passOf[link.from] != passOf[link.to] {
                // The later pass sets it; it fetches the earlier pass's object by its key. A link
                // to a later pass that has an inverse is set from the other side (listed there).
                let laterIsOwner = passOf[link.from] > passOf[link.to]
                if !laterIsOwner && link.hasInverse { continue }
                let earlier = laterIsOwner ? link.to : link.from
                let entry = PassPlan.CrossPass(entity: created[link.from], relationship: link.relationship, target: created[link.to],
                                               key: graph.uniqueKey[earlier])
                switch entry.fix {
                case .fetchByKey:
                    crossing.append(entry)
                case .samePass:
                    merged.append(entry)
                    edges[link.from].append(link.to)
                    edges[link.to].append(link.from)
                    merging = true
                }
            }
            if !merging { break }
        }
        let order = Dictionary(created.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let crossPass = (crossing + merged).sorted {
            (order[$0.entity] ?? 0, $0.relationship, order[$0.target] ?? 0) < (order[$1.entity] ?? 0, $1.relationship, order[$1.target] ?? 0)
        }
        return PassPlan(passes: passes, coverage: coverage(source: source, destination: destination, mappings: mappings),
                        crossPass: crossPass, singlePassMemoryBytes: size(created).map(\.bytes))
    }
}

/// The destination entities a step's mappings create and the relationships between them.
struct PassGraph {
    /// A relationship from one created entity to another (or to one of its sub-entities).
    struct Link {
        var from: Int
        var to: Int
        var relationship: String
        var hasInverse: Bool
    }

    /// Destination entities with at least one entity mapping, in the destination model's order.
    var created: [String] = []
    var mappingsOf: [String: [PassEntityMapping]] = [:]
    /// Edges from an entity to the targets of its mandatory relationships.
    var mandatory: [[Int]] = []
    var links: [Link] = []
    /// The first uniqueness constraint of each created entity, inherited ones included.
    var uniqueKey: [Int: String] = [:]

    init(destination: ObjectModel, mappings: [PassEntityMapping]) {
        let byName = Dictionary(destination.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for mapping in mappings {
            guard let to = mapping.destination, byName[to] != nil else { continue }
            mappingsOf[to, default: []].append(mapping)
        }
        created = destination.entities.map(\.name).filter { mappingsOf[$0] != nil }
        var seenNames: Set<String> = []
        created = created.filter { seenNames.insert($0).inserted }
        let index = Dictionary(created.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        for entity in destination.entities { if let parent = entity.parentEntity { children[parent, default: []].append(entity.name) } }
        // The entity and its ancestors, nearest first (bounded: a parent cycle stops).
        func lineage(_ name: String) -> [Entity] {
            var result: [Entity] = []
            var seen: Set<String> = []
            var current: String? = name
            while let entityName = current, seen.insert(entityName).inserted, let entity = byName[entityName] {
                result.append(entity)
                current = entity.parentEntity
            }
            return result
        }
        // The created entities among `name` and its sub-entities.
        func targets(_ name: String) -> [Int] {
            var result: [Int] = []
            var seen: Set<String> = []
            var queue = [name]
            while let next = queue.popLast() {
                guard seen.insert(next).inserted else { continue }
                if let node = index[next] { result.append(node) }
                queue += children[next] ?? []
            }
            return result.sorted()
        }
        mandatory = Array(repeating: [], count: created.count)
        for (from, name) in created.enumerated() {
            let ancestry = lineage(name)
            if let constraint = ancestry.lazy.flatMap(\.uniquenessConstraints).first(where: { !$0.isEmpty }) {
                uniqueKey[from] = constraint.joined(separator: ",")
            }
            for relationship in ancestry.flatMap(\.relationships) where !relationship.isTransient {
                guard let target = relationship.destinationEntity else { continue }
                let required = relationship.isMandatory
                let hasInverse = relationship.inverseName.map { inverse in
                    lineage(target).contains { $0.relationships.contains { $0.name == inverse } }
                } ?? false
                for to in targets(target) where to != from {
                    if required { mandatory[from].append(to) }
                    links.append(Link(from: from, to: to, relationship: relationship.name, hasInverse: hasInverse))
                }
            }
        }
    }
}
