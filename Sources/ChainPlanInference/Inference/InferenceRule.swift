import ChainPlanCore
/// One rule of Core Data's mapping inference (`inferredMappingModelForSourceModel:destinationModel:error:`,
/// `shared/reference/core-data-internals.md` §4), as chainplan applies it.
///
/// Each rule lives in a file under `Rules/` with what it checks, where that knowledge comes from,
/// the finding it raises, the functions the engine (`MappingInference`) calls on each pair it
/// matches, and the examples its test runs (`InferenceRuleCatalogueTests` parses each example's
/// two versions, infers the mapping and checks the outcome and whether the rule fired). A rule
/// that raises a code shares the file of the code's declaration.
package struct InferenceRule: Sendable, Hashable, Identifiable {
    /// Short id, used as `ModelChange.rule`, e.g. `attribute-type-conversion`.
    package var id: String
    /// What the rule checks and what Core Data does, in one or two sentences.
    package var checks: String
    package var basis: RuleBasis
    /// The finding it raises, if any (its severity is the code's, declared in the code's rule file).
    package var code: DiagnosticCode?
    package var examples: [RuleExample]

    package init(id: String, checks: String, basis: RuleBasis, code: DiagnosticCode? = nil, examples: [RuleExample]) {
        self.id = id
        self.checks = checks
        self.basis = basis
        self.code = code
        self.examples = examples
    }

    /// A change attributed to this rule.
    func change(_ kind: ModelChange.Kind, entity: String, property: String? = nil, detail: String,
                verdict: ChangeVerdict, code: DiagnosticCode?? = nil, basis: RuleBasis? = nil,
                location: SourceLocation?) -> ModelChange {
        ModelChange(kind, entity: entity, property: property, detail: detail, verdict: verdict, rule: id,
                    basis: basis ?? self.basis, code: code ?? self.code, location: location)
    }
}

extension InferredMapping {
    /// The outcome of an example or step, in the terms of `RuleExample.Outcome`.
    package var outcome: RuleExample.Outcome {
        if !needsMigration { return .none }
        if !isInferable { return .refused }
        return validation.isEmpty ? .inferred : .validation
    }
}

/// Every inference rule, in the order of the reference's §4.
package enum InferenceRules {
    package static let all: [InferenceRule] = [
        entityMatching, duplicateSourceEntityKey, duplicateDestinationEntityKey, removedEntity, addedEntity,
        likelyEntityRename, hierarchyChange, uniquenessConstraintChange, versionHashModifier,
        duplicateSourcePropertyKey, propertyKindMismatch, persistentTransient, removedProperty, likelyPropertyRename,
        attributeTypeConversion, typeTransformation, externalStorage, optionalToMandatory, newMandatoryProperty,
        toManyToToOne, relationshipShapeChange, relationshipDestinationChange, notHashed,
    ]

    package static func rule(id: String) -> InferenceRule? { all.first { $0.id == id } }

    /// A two-version example: the `<entity>` elements of the source and of the destination, what
    /// inference of the step gives, and whether the rule fires on it.
    static func example(_ title: String, _ source: String, _ destination: String, _ outcome: RuleExample.Outcome,
                        fires: Bool = true) -> RuleExample {
        .inference(title, source: source, destination: destination, outcome: outcome, fires: fires)
    }

    /// `<entity name="E"><attribute …/></entity>` helpers for the examples.
    static func entity(_ name: String, _ body: String = "", _ extra: String = "") -> String {
        "<entity name=\"\(name)\"\(extra.isEmpty ? "" : " " + extra)>\(body)</entity>"
    }

    static func attribute(_ name: String, _ type: String, _ extra: String = "optional=\"YES\"") -> String {
        "<attribute name=\"\(name)\" attributeType=\"\(type)\"\(extra.isEmpty ? "" : " " + extra)/>"
    }

    static func toOne(_ name: String, _ destination: String, _ extra: String = "optional=\"YES\"") -> String {
        "<relationship name=\"\(name)\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"\(destination)\"\(extra.isEmpty ? "" : " " + extra)/>"
    }

    static func toMany(_ name: String, _ destination: String, _ extra: String = "optional=\"YES\"") -> String {
        "<relationship name=\"\(name)\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"\(destination)\"\(extra.isEmpty ? "" : " " + extra)/>"
    }
}
