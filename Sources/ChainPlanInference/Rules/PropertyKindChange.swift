import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP211 PropertyKindChange: an attribute is replaced by a relationship or entity (or the reverse).
    ///
    /// Raised by the inference rule below, property-kind-mismatch (`StageSynthesis` plans the copy a stage needs for it).
    package static let propertyKindChange = DiagnosticCode(
        "CP211", name: "PropertyKindChange", severity: .warning,
        summary: "An attribute is replaced by a relationship or entity (or the reverse)",
        help: "For example a `categoria` string attribute becoming a `Categoria` entity. Core Data infers this as drop + add: the step migrates, but the old values are deleted. Move the data with a mapping model or a custom migration stage.",
        examples: [
            .versions("a text attribute becomes a relationship to a new entity", versions: [
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Nota"><relationship name="categoria" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Categoria"/></entity><entity name="Categoria"><attribute name="nombre" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 1),
            .versions("a relationship added beside the attribute", versions: [
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/><relationship name="grupo" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Categoria"/></entity><entity name="Categoria"><attribute name="nombre" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 0),
        ])
}
extension InferenceRules {
    /// §4.2: a destination key whose source is another kind (attribute, relationship, derived
    /// attribute) is treated as unmatched: drop + add, no error.
    package static let propertyKindMismatch = InferenceRule(
        id: "property-kind-mismatch",
        checks: "A property keeps its key but changes kind (attribute, relationship or derived attribute), or an attribute is replaced "
            + "by an entity of the same name: Core Data drops and re-adds it and the stored values are deleted",
        basis: .coreDataBuilder, code: .propertyKindChange,
        examples: [
            example("an attribute becomes a relationship", entity("Nota", attribute("categoria", "String")),
                    entity("Nota", toOne("categoria", "Categoria")) + entity("Categoria", attribute("nombre", "String")), .inferred),
        ])
}

extension InferenceRules {
    /// A destination property whose key's source is another kind (attribute, relationship,
    /// derived attribute): dropped and re-added, and judged like a new property.
    static func kindChange(_ source: StoredProperty, _ destination: StoredProperty, sourceEntity: String, entity: String,
                           files: StepFiles) -> InferenceFindings {
        InferenceFindings(
            changes: [propertyKindMismatch.change(
                .propertyKindChanged, entity: entity, property: destination.name,
                detail: "'\(sourceEntity).\(source.name)' changes from \(source.kind) to \(destination.kind): Core Data drops and re-adds it, and the stored values are deleted",
                verdict: .dataLoss, location: files.destination(destination.line, destination.column))],
            validation: newPropertyCheck(destination, sourceEntity: sourceEntity, entity: entity).map { [$0] } ?? [])
    }

    /// An unmatched source attribute replaced by an unmatched relationship, or by a new entity,
    /// of the same name (letter case aside).
    static func attributeReplaced(_ property: StoredProperty, unmatchedDestinations: [StoredProperty], source: ResolvedView,
                                  destination: ResolvedView, sourceEntity: String, entity: String, files: StepFiles) -> ModelChange? {
        guard case .attribute(let a) = property else { return nil }
        let lowered = a.name.lowercased()
        let becameRelationship = unmatchedDestinations.contains { candidate in
            if case .relationship(let r) = candidate { return r.name.lowercased() == lowered }
            return false
        }
        guard becameRelationship || (destination.lowercasedNames.contains(lowered) && !source.lowercasedNames.contains(lowered)) else { return nil }
        return propertyKindMismatch.change(
            .propertyKindChanged, entity: entity, property: a.name,
            detail: "attribute '\(sourceEntity).\(a.name)' is replaced by \(becameRelationship ? "a relationship" : "an entity") of the same name: "
                + "Core Data drops and re-adds it, and its values are deleted",
            verdict: .dataLoss, location: files.source(a.line, a.column))
    }
}
