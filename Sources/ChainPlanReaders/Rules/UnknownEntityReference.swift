import ChainPlanCore

extension DiagnosticCode {
    /// CP116 UnknownEntityReference: a relationship or parent names an entity that does not exist.
    ///
    /// Raised by the model validator (`ModelValidator.Check.unknownEntityReferences`, below).
    package static let unknownEntityReference = DiagnosticCode(
        "CP116", name: "UnknownEntityReference", severity: .error, unusableInput: true,
        summary: "A relationship or parent names an entity that does not exist",
        help: "A relationship's destination or inverse entity, or an entity's parent, is not defined in the model version; momc fails to compile it.",
        examples: [
            .project("a relationship to an entity that does not exist", files: RuleExampleFixtures.project([
                #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#,
            ]), expected: 1),
            .project("the destination entity exists", files: RuleExampleFixtures.project([
                #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
            ]), expected: 0),
        ])
}

extension ModelValidator.Check {
    /// A parent entity that does not exist; a relationship with no destination, or whose
    /// destination or inverse entity does not exist.
    func unknownEntityReferences() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let firstEntity = firstEntityLines
        for entity in model.entities {
            if let parent = entity.parentEntity, firstEntity[parent] == nil {
                diagnostics.append(finding(.unknownEntityReference, "entity '\(entity.name)' names parent entity '\(parent)', which does not exist",
                                           line: entity.line, column: entity.column))
            }
            for relationship in entity.relationships {
                let qualified = "\(entity.name).\(relationship.name)"
                if let destination = relationship.destinationEntity {
                    if firstEntity[destination] == nil {
                        diagnostics.append(finding(.unknownEntityReference,
                                                   "relationship '\(qualified)' names destination entity '\(destination)', which does not exist",
                                                   line: relationship.line, column: relationship.column))
                    }
                } else {
                    diagnostics.append(finding(.unknownEntityReference, "relationship '\(qualified)' has no destination entity",
                                               line: relationship.line, column: relationship.column))
                }
                if let inverse = relationship.inverseEntity, firstEntity[inverse] == nil {
                    diagnostics.append(finding(.unknownEntityReference, "relationship '\(qualified)' names inverse entity '\(inverse)', which does not exist",
                                               line: relationship.line, column: relationship.column))
                }
            }
        }
        return diagnostics
    }
}
