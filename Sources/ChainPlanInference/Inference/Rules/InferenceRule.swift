import ChainPlanCore
/// One rule of Core Data's mapping inference (`inferredMappingModelForSourceModel:destinationModel:error:`,
/// `shared/reference/core-data-internals.md` §4), as chainplan applies it.
///
/// Each rule lives in a file of its own under `Mapping/Inference/Rules/`, with what it checks, where
/// that knowledge comes from, the finding it raises, and the examples its test runs
/// (`InferenceRuleCatalogueTests` parses each example's two versions, infers the mapping and
/// checks the outcome and whether the rule fired).
public struct InferenceRule: Sendable, Hashable, Identifiable {
    /// Short id, used as `ModelChange.rule`, e.g. `attribute-type-conversion`.
    public var id: String
    /// What the rule checks and what Core Data does, in one or two sentences.
    public var checks: String
    public var basis: RuleBasis
    /// The finding it raises, if any (its severity is the code's, declared in the code's rule file).
    public var code: DiagnosticCode?
    public var examples: [InferenceRuleExample]

    public init(id: String, checks: String, basis: RuleBasis, code: DiagnosticCode? = nil, examples: [InferenceRuleExample]) {
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

/// A minimal two-version example of a rule: the `<entity>` elements of the source and of the
/// destination, what inference of the step gives, and whether the rule fires on it.
public struct InferenceRuleExample: Sendable, Hashable, CustomStringConvertible {
    public enum Outcome: String, Sendable, Hashable {
        /// Equal entity hashes: Core Data runs no migration.
        case none
        /// Inferred, no data-dependent check.
        case inferred
        /// Inferred, flagged "could fail validation": the result depends on the store's rows.
        case validation
        /// The builder refuses (134190): a mapping model is needed.
        case refused
    }

    public var title: String
    public var source: String
    public var destination: String
    public var outcome: Outcome
    /// True when the rule's id is among the step's changes.
    public var fires: Bool

    public init(_ title: String, _ source: String, _ destination: String, _ outcome: Outcome, fires: Bool = true) {
        self.title = title
        self.source = source
        self.destination = destination
        self.outcome = outcome
        self.fires = fires
    }

    public var description: String { title }
}

extension InferredMapping {
    /// The outcome of an example or step, in the terms of `InferenceRuleExample.Outcome`.
    public var outcome: InferenceRuleExample.Outcome {
        if !needsMigration { return .none }
        if !isInferable { return .refused }
        return validation.isEmpty ? .inferred : .validation
    }
}

/// Every inference rule, in the order of the reference's §4.
public enum InferenceRules {
    public static let all: [InferenceRule] = [
        entityMatching, duplicateSourceEntityKey, duplicateDestinationEntityKey, removedEntity, addedEntity,
        likelyEntityRename, hierarchyChange, uniquenessConstraintChange, versionHashModifier,
        duplicateSourcePropertyKey, propertyKindMismatch, persistentTransient, removedProperty, likelyPropertyRename,
        attributeTypeConversion, typeTransformation, externalStorage, optionalToMandatory, newMandatoryProperty,
        toManyToToOne, relationshipShapeChange, relationshipDestinationChange, notHashed,
    ]

    public static func rule(id: String) -> InferenceRule? { all.first { $0.id == id } }

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
