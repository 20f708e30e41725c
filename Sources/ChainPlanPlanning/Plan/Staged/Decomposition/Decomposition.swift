import ChainPlanInference
/// A suggested decomposition of one step into inferable steps plus a custom stage that moves the
/// data (expand → copy → contract, the WWDC 2023 staged-migration pattern; reference §6.2.1).
/// Every step of it was classified by the chain's own classifier on the intermediate models.
public struct Decomposition: Sendable, Hashable, Codable {
    public enum Pattern: String, Sendable, Hashable, Codable {
        /// An attribute moved into a new entity reached by a new relationship.
        case attributeToEntity = "attribute-to-entity"
        /// Several attributes of an entity moved into a new entity reached by a new relationship.
        case entitySplit = "entity-split"
        /// An attribute made mandatory without a default (or added mandatory without one).
        case optionalToMandatory = "optional-to-mandatory"
    }

    /// The step decomposed.
    public var from: String
    public var to: String
    public var pattern: Pattern
    /// One sentence: what moves where.
    public var summary: String
    /// The new model versions, in chain order.
    public var intermediates: [IntermediateVersion]
    /// The steps replacing `from → to`, in order; each classified.
    public var steps: [DecomposedStep]

    /// `from`, the intermediates, `to`.
    public var chain: [String] { [from] + intermediates.map(\.name) + [to] }
}

/// A model version the decomposition adds: `base` (a version of the bundle) with `edits` applied.
public struct IntermediateVersion: Sendable, Hashable, Codable {
    public var name: String
    public var base: String
    public var edits: [ModelEdit]
}

/// One edit of a model version (applied to its parsed model, or to its `contents` XML).
public struct ModelEdit: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Put `attribute` of `sourceEntity` at `sourceVersion` back into `entity`.
        case restoreAttribute = "restore-attribute"
        /// Make `attribute` of `entity` optional.
        case makeOptional = "make-optional"
    }

    public var kind: Kind
    public var entity: String
    public var attribute: String
    public var sourceVersion: String?
    public var sourceEntity: String?
}

/// One step of a decomposition: the stage it becomes and what it does.
public struct DecomposedStep: Sendable, Hashable, Codable {
    public var from: String
    public var to: String
    /// `custom` for the stage whose handlers move the data, `lightweight` otherwise.
    public var stage: MigrationStage.Kind
    /// The chain classifier's verdict on the step's migration (`lightweight`, or `none`).
    public var migration: MigrationKind
    public var does: String
    /// The custom stage's data work.
    public var work: [DataWork]
}

/// Attributes copied into a new entity: for each object of the work's entity, a new object of
/// `destinationEntity` gets the values and is linked by `relationship`.
public struct CopyIntoEntity: Sendable, Hashable, Codable {
    public struct Pair: Sendable, Hashable, Codable {
        /// The attribute of the work's entity.
        public var from: String
        /// The attribute of `destinationEntity`.
        public var to: String
    }

    public var relationship: String
    public var toMany: Bool
    public var destinationEntity: String
    public var attributes: [Pair]
}
