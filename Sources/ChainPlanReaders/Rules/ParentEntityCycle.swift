import ChainPlanCore

extension DiagnosticCode {
    /// CP117 ParentEntityCycle: entity inheritance forms a cycle.
    ///
    /// Raised by the model validator (`ModelValidator.Check.parentEntityCycles`, below).
    package static let parentEntityCycle = DiagnosticCode(
        "CP117", name: "ParentEntityCycle", severity: .error, unusableInput: true,
        summary: "Entity inheritance forms a cycle",
        help: "An entity is (indirectly) its own parent; no model can be built from it.",
        examples: [
            .project("two entities each the other's parent", files: RuleExampleFixtures.project([
                #"<entity name="Car" parentEntity="Vehicle"/><entity name="Vehicle" parentEntity="Car"/>"#,
            ]), expected: 1),
            .project("a parent without a parent", files: RuleExampleFixtures.project([#"<entity name="Car" parentEntity="Vehicle"/><entity name="Vehicle"/>"#]), expected: 0),
        ])
}

extension ModelValidator.Check {
    /// Each parent-entity cycle once, at its member that comes first in the file (parent links
    /// form a functional graph).
    func parentEntityCycles() -> [Diagnostic] {
        ModelValidator.parentCycles(model).map { cycle in
            let names = cycle.map { "'\($0.name)'" } + ["'\(cycle[0].name)'"]
            let text = cycle.count == 1
                ? "entity '\(cycle[0].name)' is its own parent entity"
                : "entity inheritance forms a cycle: \(names.joined(separator: " → "))"
            return finding(.parentEntityCycle, text, line: cycle[0].line, column: cycle[0].column)
        }
    }
}

extension ModelValidator {
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
