/// How certain chainplan is about a rule.
public enum RuleBasis: String, Sendable, Hashable, Codable {
    /// Apple documents the behaviour.
    case documented
    /// Seen in shipped apps whose tests or crash paths depend on it (../shared/corpus).
    case observed
    /// Neither documented nor observed: chainplan takes the cautious reading, which is "not
    /// inferable" where a wrong "inferable" would break stores, and "inferable, with a CP210
    /// warning" where Core Data runs the step but the result is unverified.
    case conservative
}

/// What a change means for an inferred (lightweight) migration.
public enum ChangeVerdict: String, Sendable, Hashable, Codable {
    /// Core Data infers it, and no data is lost.
    case inferable
    /// Core Data infers it, but stored data is dropped.
    case dataLoss = "data-loss"
    /// Core Data cannot infer it: the step needs a mapping model.
    case blocksInference = "blocks-inference"
    /// Does not change the version hash: no migration is needed for it alone.
    case noMigration = "no-migration"
}

/// One difference between two model versions, with its verdict and the rule behind it.
public struct ModelChange: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case entityAdded = "entity-added"
        case entityRemoved = "entity-removed"
        case entityRenamed = "entity-renamed"
        case likelyEntityRename = "likely-entity-rename"
        case parentChanged = "parent-changed"
        case hierarchyMerged = "hierarchy-merged"
        case abstractChanged = "abstract-changed"
        case hashModifierChanged = "hash-modifier-changed"
        case attributeAdded = "attribute-added"
        case attributeRemoved = "attribute-removed"
        case attributeRenamed = "attribute-renamed"
        case likelyPropertyRename = "likely-property-rename"
        case attributeTypeChanged = "attribute-type-changed"
        case optionalityChanged = "optionality-changed"
        case transientChanged = "transient-changed"
        case defaultValueChanged = "default-value-changed"
        case propertyKindChanged = "property-kind-changed"
        case relationshipAdded = "relationship-added"
        case relationshipRemoved = "relationship-removed"
        case relationshipRenamed = "relationship-renamed"
        case destinationChanged = "destination-changed"
        case cardinalityChanged = "cardinality-changed"
        case orderingChanged = "ordering-changed"
        case countChanged = "count-changed"
        case deleteRuleChanged = "delete-rule-changed"
        case inverseChanged = "inverse-changed"
        case uniquenessChanged = "uniqueness-changed"
        case indexChanged = "index-changed"
        case transformerChanged = "transformer-changed"
        /// A hashed input no other kind names (e.g. preserve after deletion) moved the version hash.
        case hashInputChanged = "hash-input-changed"
    }

    public var kind: Kind
    /// The entity (destination name; source name for removals).
    public var entity: String
    /// The property, when the change is about one.
    public var property: String?
    /// A sentence describing the change, e.g. `'Note.fecha' renamed to 'momento' (renaming identifier)`.
    public var detail: String
    public var verdict: ChangeVerdict
    /// Short rule id, e.g. `add-non-optional-attribute-without-default`.
    public var rule: String
    public var basis: RuleBasis
    /// The finding this change raises on an inferred step, if any.
    public var code: DiagnosticCode?
    /// Where the change is visible: the destination element's line (source's for removals).
    public var location: SourceLocation?

    public init(_ kind: Kind, entity: String, property: String? = nil, detail: String, verdict: ChangeVerdict,
                rule: String, basis: RuleBasis, code: DiagnosticCode? = nil, location: SourceLocation? = nil) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.detail = detail
        self.verdict = verdict
        self.rule = rule
        self.basis = basis
        self.code = code
        self.location = location
    }
}

/// One entity mapping of an inferred mapping model, named the way Xcode names them (`AmountToUnit`).
public struct InferredEntityMapping: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Same entity, unchanged hash.
        case copy
        /// Same entity (possibly renamed), changed.
        case transform
        case add
        case remove
    }

    public var name: String
    public var kind: Kind
    public var source: String?
    public var destination: String?
    /// Destination property → value expression (`$source.name`), for copy/transform mappings.
    public var propertyMappings: [PropertyMapping]

    public struct PropertyMapping: Sendable, Hashable, Codable {
        public var destination: String
        /// `$source.x` or nil for a property with no source (it gets its default or nil).
        public var expression: String?
    }
}
