import ChainPlanCore
/// Semantic checks of one model version, the ones momc would refuse.
///
/// - CP115: an entity name defined twice; a property name defined twice in one entity, or
///   declared by an entity and by one of its ancestors (Core Data does not allow overriding).
/// - CP116: a relationship with no destination, or whose destination or inverse entity does not
///   exist; a parent entity that does not exist.
/// - CP117: a parent-entity cycle, reported once per cycle at the member that comes first in
///   the file.
///
/// Every finding is reported, at the line of the offending element.
public enum ModelValidator {
    /// All findings for `model`, sorted; `file` is the display path, `version` the version name.
    public static func validate(_ model: ObjectModel, file: String, version: String? = nil) -> [Diagnostic] {
        let versions = version.map { [$0] } ?? []
        var diagnostics: [Diagnostic] = []
        func report(_ code: DiagnosticCode, _ message: String, line: Int?, column: Int? = nil) {
            diagnostics.append(Diagnostic(code, message, at: SourceLocation(file: file, line: line, column: line == nil ? nil : column), versions: versions))
        }
        func lineText(_ line: Int?) -> String { line.map { " (line \($0))" } ?? "" }

        // CP115: entity names.
        var firstEntity: [String: Int?] = [:]
        firstEntity.reserveCapacity(model.entities.count)
        for entity in model.entities {
            if let first = firstEntity[entity.name] {
                report(.duplicateModelName, "entity '\(entity.name)' is defined more than once, first\(lineText(first))",
                       line: entity.line, column: entity.column)
            } else {
                firstEntity[entity.name] = entity.line
            }
        }

        // CP115: property names within one entity (the slow path only when a name repeats).
        for entity in model.entities {
            var names: Set<String> = []
            names.reserveCapacity(entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
            var repeats = false
            for attribute in entity.attributes where !names.insert(attribute.name).inserted { repeats = true }
            for relationship in entity.relationships where !names.insert(relationship.name).inserted { repeats = true }
            for fetched in entity.fetchedProperties where !names.insert(fetched.name).inserted { repeats = true }
            guard repeats else { continue }
            let properties: [(String, Int?, Int?)] = entity.attributes.map { ($0.name, $0.line, $0.column) }
                + entity.relationships.map { ($0.name, $0.line, $0.column) }
                + entity.fetchedProperties.map { ($0.name, $0.line, $0.column) }
            let fileOrder = properties.enumerated().sorted {
                (($0.element.1 ?? 0), $0.offset) < (($1.element.1 ?? 0), $1.offset)
            }.map(\.element)
            var seen: [String: Int?] = [:]
            for (name, line, column) in fileOrder {
                if let first = seen[name] {
                    report(.duplicateModelName, "entity '\(entity.name)' defines property '\(name)' more than once, first\(lineText(first))",
                           line: line, column: column)
                } else {
                    seen[name] = line
                }
            }
        }

        // CP115: properties redeclared from an ancestor.
        // Resolution is only needed when some entity has a parent.
        let resolved = model.entities.contains { $0.parentEntity != nil } ? model.resolved() : nil
        for resolvedEntity in resolved?.entities ?? [] where !resolvedEntity.hasCyclicAncestry && !resolvedEntity.inheritedFrom.isEmpty {
            let entity = resolvedEntity.entity
            var reported: Set<String> = []
            let declared: [(String, Int?, Int?)] = entity.attributes.map { ($0.name, $0.line, $0.column) }
                + entity.relationships.map { ($0.name, $0.line, $0.column) }
                + entity.fetchedProperties.map { ($0.name, $0.line, $0.column) }
            for (name, line, column) in declared where !reported.contains(name) {
                guard let owner = resolvedEntity.inheritedFrom[name] else { continue }
                reported.insert(name)
                report(.duplicateModelName,
                       "property '\(name)' of entity '\(entity.name)' is already defined by its ancestor entity '\(owner)'",
                       line: line, column: column)
            }
        }

        // CP116: unknown entity references.
        for entity in model.entities {
            if let parent = entity.parentEntity, firstEntity[parent] == nil {
                report(.unknownEntityReference, "entity '\(entity.name)' names parent entity '\(parent)', which does not exist",
                       line: entity.line, column: entity.column)
            }
            for relationship in entity.relationships {
                let qualified = "\(entity.name).\(relationship.name)"
                if let destination = relationship.destinationEntity {
                    if firstEntity[destination] == nil {
                        report(.unknownEntityReference,
                               "relationship '\(qualified)' names destination entity '\(destination)', which does not exist",
                               line: relationship.line, column: relationship.column)
                    }
                } else {
                    report(.unknownEntityReference, "relationship '\(qualified)' has no destination entity", line: relationship.line, column: relationship.column)
                }
                if let inverse = relationship.inverseEntity, firstEntity[inverse] == nil {
                    report(.unknownEntityReference, "relationship '\(qualified)' names inverse entity '\(inverse)', which does not exist",
                           line: relationship.line, column: relationship.column)
                }
            }
        }

        // CP117: parent cycles (parent links form a functional graph; each cycle found once).
        diagnostics += parentCycles(model).map { cycle in
            let names = cycle.map { "'\($0.name)'" } + ["'\(cycle[0].name)'"]
            let text = cycle.count == 1
                ? "entity '\(cycle[0].name)' is its own parent entity"
                : "entity inheritance forms a cycle: \(names.joined(separator: " → "))"
            return Diagnostic(.parentEntityCycle, text, at: SourceLocation(file: file, line: cycle[0].line, column: cycle[0].line == nil ? nil : cycle[0].column), versions: versions)
        }

        if let resolved, !resolved.isComplete {
            report(.malformedModelXML, "the model's inheritance is too large to resolve (over \(ResolvedModel.defaultBudget) inherited entries)",
                   line: nil)
        }
        return diagnostics.sorted()
    }

    /// Each parent cycle once, rotated to start at its member that comes first in the file.
    static func parentCycles(_ model: ObjectModel) -> [[Entity]] {
        // Positions of first definitions, in file order.
        var position: [String: Int] = [:]
        var entities: [Entity] = []
        for entity in model.entities where position[entity.name] == nil {
            position[entity.name] = entities.count
            entities.append(entity)
        }
        enum State { case unvisited, onPath, done }
        var state = [State](repeating: .unvisited, count: entities.count)
        var cycles: [[Entity]] = []
        for start in entities.indices where state[start] == .unvisited {
            var path: [Int] = []
            var current: Int? = start
            while let node = current, state[node] == .unvisited {
                state[node] = .onPath
                path.append(node)
                current = entities[node].parentEntity.flatMap { position[$0] }
            }
            if let node = current, state[node] == .onPath, let from = path.firstIndex(of: node) {
                let members = Array(path[from...])
                let firstMember = members.min() ?? members[0]
                let rotation = members.firstIndex(of: firstMember) ?? 0
                let rotated = members[rotation...] + members[..<rotation]
                cycles.append(rotated.map { entities[$0] })
            }
            for node in path { state[node] = .done }
        }
        return cycles
    }
}
