import ChainPlanCore
import ChainPlanReaders

/// What the inference rules find in a step: changes, and the checks the store's rows must pass
/// (§4.2, "could fail validation"). A rule that only reports changes returns an array literal.
struct InferenceFindings: ExpressibleByArrayLiteral {
    var changes: [ModelChange] = []
    var validation: [ValidationCheck] = []

    init(changes: [ModelChange] = [], validation: [ValidationCheck] = []) {
        self.changes = changes
        self.validation = validation
    }

    init(arrayLiteral changes: ModelChange...) {
        self.changes = changes
    }

    static func += (lhs: inout InferenceFindings, rhs: InferenceFindings) {
        lhs.changes += rhs.changes
        lhs.validation += rhs.validation
    }
}

/// The `contents` files of a step's two versions: findings about what a step removes point into
/// the source, the others into the destination.
struct StepFiles {
    var source: String?
    var destination: String?

    func source(_ line: Int?, _ column: Int?) -> SourceLocation? { Self.at(source, line, column) }
    func destination(_ line: Int?, _ column: Int?) -> SourceLocation? { Self.at(destination, line, column) }

    private static func at(_ file: String?, _ line: Int?, _ column: Int?) -> SourceLocation? {
        file.map { SourceLocation(file: $0, line: line, column: line == nil ? nil : column) }
    }
}

/// Two entities the builder pairs by key (§4.1), as the entity rules read them.
struct EntityPair {
    var source: ResolvedEntityView
    var destination: ResolvedEntityView
    /// The source entity's parent, the destination's, and the entity the source parent's rows go to.
    var sourceParent: String?
    var destinationParent: String?
    var parentGoesTo: String?
    /// True when the destination takes part in a hierarchy merge (reported once, for the merge).
    var inMerge: Bool
    /// The destination entity's place in its `contents`.
    var location: SourceLocation?
}

/// Two attributes the builder pairs by key (§4.2), as the attribute rules read them.
struct AttributePair {
    var source: Attribute
    var destination: Attribute
    var sourceEntity: String
    var entity: String
    /// The destination attribute's place in its `contents`.
    var location: SourceLocation?

    /// `'Entity.attribute'`, as messages name it.
    var label: String { "'\(entity).\(destination.name)'" }
}

/// Two relationships the builder pairs by key (§4.2), as the relationship rules read them.
struct RelationshipPair {
    var source: Relationship
    var destination: Relationship
    var sourceEntity: String
    var entity: String
    /// The entity the source relationship's destination rows go to in this step (nil: removed).
    var survivingDestination: String?
    /// The destination relationship's place in its `contents`.
    var location: SourceLocation?

    var label: String { "'\(entity).\(destination.name)'" }
}

/// A stored property of either kind, for matching (composite elements are attributes named
/// `composite.element`).
enum StoredProperty {
    case attribute(Attribute)
    case relationship(Relationship)

    var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        }
    }

    /// Core Data's key: renaming identifier, else name.
    var key: String {
        switch self {
        case .attribute(let a): InferenceRules.key(name: a.name, renamingIdentifier: a.renamingIdentifier)
        case .relationship(let r): InferenceRules.key(name: r.name, renamingIdentifier: r.renamingIdentifier)
        }
    }

    /// Attribute, derived attribute or relationship: a key shared by two kinds is drop + add.
    var kind: String {
        switch self {
        case .attribute(let a): a.isDerived ? "derived attribute" : "attribute"
        case .relationship: "relationship"
        }
    }

    var isAttribute: Bool {
        if case .attribute = self { return true }
        return false
    }

    var line: Int? {
        switch self {
        case .attribute(let a): a.line
        case .relationship(let r): r.line
        }
    }

    var column: Int? {
        switch self {
        case .attribute(let a): a.column
        case .relationship(let r): r.column
        }
    }

    /// Kind and type: what a rename must keep.
    var signature: String {
        switch self {
        case .attribute(let a): "attribute:\(a.type.xmlValue)"
        case .relationship(let r): "relationship:\(r.destinationEntity ?? ""):\(r.isToMany)"
        }
    }
}
