import ChainPlanCore
import ChainPlanReaders
/// Where chainplan's knowledge of a rule comes from.
public enum RuleBasis: String, Sendable, Hashable, Codable {
    /// Read in Core Data's own mapping builder (`shared/reference/core-data-internals.md` §4–§5).
    case coreDataBuilder = "core-data-builder"
    /// Apple documents the behaviour; the builder's code was not seen to contradict it.
    case appleDocumentation = "apple-documentation"
    /// Not settled: the builder accepts the change, but what the migration does with the data is
    /// not known. Reported at warning level or above, never as certainly fine.
    case unverified
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
        case duplicateKey = "duplicate-key"
        case renamingIdentifierChanged = "renaming-identifier-changed"
        case externalStorageChanged = "external-storage-changed"
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
    /// The source property whose values the change is about, where its name differs from
    /// `property` (a likely rename: `property` is the new name). Not part of the JSON.
    public var sourceProperty: String?

    private enum CodingKeys: String, CodingKey {
        case kind, entity, property, detail, verdict, rule, basis, code, location
    }

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

/// A check that decides a step at migration time: the inferred mapping is flagged "could fail
/// validation", and the migration fails (134110) when a row of `entity` has no value for
/// `property` (§4.2, §5).
public struct ValidationCheck: Sendable, Hashable, Codable, Comparable {
    public enum Reason: String, Sendable, Hashable, Codable {
        /// A new mandatory property without a default value: fails as soon as the entity has a row.
        case newMandatory = "new-mandatory"
        /// An optional property becomes mandatory without a default: fails on rows with no value.
        case optionalToMandatory = "optional-to-mandatory"
    }

    public enum Kind: String, Sendable, Hashable, Codable {
        case attribute, relationship
    }

    /// The destination entity.
    public var entity: String
    /// The destination property.
    public var property: String
    public var kind: Kind
    public var reason: Reason
    /// The source entity and property whose rows decide it (nil source property for a new one).
    public var sourceEntity: String
    public var sourceProperty: String?
    /// A to-many relationship (checked for having no references rather than NULL).
    public var toMany: Bool

    public init(entity: String, property: String, kind: Kind, reason: Reason, sourceEntity: String,
                sourceProperty: String?, toMany: Bool = false) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.reason = reason
        self.sourceEntity = sourceEntity
        self.sourceProperty = sourceProperty
        self.toMany = toMany
    }

    public static func < (lhs: ValidationCheck, rhs: ValidationCheck) -> Bool {
        (lhs.entity, lhs.property) < (rhs.entity, rhs.property)
    }

    /// "any Note has no title" / "any Note exists" (a new mandatory property fails on every row).
    public var condition: String {
        switch reason {
        case .newMandatory: "any \(sourceEntity) exists (new mandatory \(kind.rawValue) '\(entity).\(property)' has no default)"
        case .optionalToMandatory:
            "any \(sourceEntity) has no \(sourceProperty ?? property)\(toMany ? " (no linked objects)" : "")"
                + " ('\(entity).\(property)' becomes mandatory without a default)"
        }
    }
}
