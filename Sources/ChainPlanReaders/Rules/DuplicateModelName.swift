import ChainPlanCore

extension DiagnosticCode {
    /// CP115 DuplicateModelName: an entity or property name is defined twice.
    ///
    /// Raised by the model validator (`ModelValidator.Check.duplicateNames`, below).
    package static let duplicateModelName = DiagnosticCode(
        "CP115", name: "DuplicateModelName", severity: .error, unusableInput: true,
        summary: "An entity or property name is defined twice",
        help: "Xcode refuses a model with two entities of one name, or two properties of one name in an entity (inherited ones included).",
        examples: [
            .project("an attribute defined twice", files: RuleExampleFixtures.project([
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="title" optional="YES" attributeType="Date"/></entity>"#,
            ]), expected: 1),
            .project("distinct names", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension ModelValidator.Check {
    /// An entity name defined twice; a property name defined twice in one entity, or declared by
    /// an entity and by one of its ancestors (Core Data does not allow overriding).
    func duplicateNames() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var firstEntity: [String: Int?] = [:]
        firstEntity.reserveCapacity(model.entities.count)
        for entity in model.entities {
            if let first = firstEntity[entity.name] {
                diagnostics.append(finding(.duplicateModelName, "entity '\(entity.name)' is defined more than once, first\(Self.lineText(first))",
                                           line: entity.line, column: entity.column))
            } else {
                firstEntity[entity.name] = entity.line
            }
        }
        // Property names within one entity (in file order only when a name repeats).
        for entity in model.entities {
            var names: Set<String> = []
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
                    diagnostics.append(finding(.duplicateModelName, "entity '\(entity.name)' defines property '\(name)' more than once, first\(Self.lineText(first))",
                                               line: line, column: column))
                } else {
                    seen[name] = line
                }
            }
        }
        // Properties redeclared from an ancestor.
        for resolvedEntity in resolved?.entities ?? [] where !resolvedEntity.hasCyclicAncestry && !resolvedEntity.inheritedFrom.isEmpty {
            let entity = resolvedEntity.entity
            var reported: Set<String> = []
            let declared: [(String, Int?, Int?)] = entity.attributes.map { ($0.name, $0.line, $0.column) }
                + entity.relationships.map { ($0.name, $0.line, $0.column) }
                + entity.fetchedProperties.map { ($0.name, $0.line, $0.column) }
            for (name, line, column) in declared where !reported.contains(name) {
                guard let owner = resolvedEntity.inheritedFrom[name] else { continue }
                reported.insert(name)
                diagnostics.append(finding(.duplicateModelName, "property '\(name)' of entity '\(entity.name)' is already defined by its ancestor entity '\(owner)'",
                                           line: line, column: column))
            }
        }
        return diagnostics
    }
}
