import ChainPlanReaders
import Foundation

/// The inputs of Core Data's entity version hashes (`core-data-internals.md` §1.2–§1.5), named:
/// the one table the hash engine's byte layout follows (`VersionHasher`, `ModelHasher`), that
/// `HashDifference` compares to say why a hash moved, that the lock fingerprints field by field,
/// and that inference compares to tell hash-equal entities apart without computing SHA-256.
///
/// An entity feeds its name, abstract flag, parent (by its hash), every non-transient attribute
/// and relationship (own and inherited), its modifier and its uniqueness constraints; a property
/// feeds the fields below. Nothing else is an input: renaming identifiers, delete rules, default
/// values, userInfo, indexes, transient properties and class names leave every hash unchanged
/// (`HashInputTableTests` checks both directions against the engine).
public enum HashInputTable {
    /// One named input and how output shows its value.
    public struct Field<Subject>: Sendable {
        public let name: String
        public let value: @Sendable (Subject) -> String

        init(_ name: String, _ value: @escaping @Sendable (Subject) -> String) {
            self.name = name
            self.value = value
        }
    }

    /// An entity's own inputs (its properties are listed apart); `parent` is the resolved one.
    public static let entity: [Field<(entity: Entity, parent: String?)>] = [
        Field("abstract") { yes($0.entity.isAbstract) },
        Field("parent") { text($0.parent) },
        Field("versionHashModifier") { "'\($0.entity.versionHashModifier ?? "")'" },
        Field("uniqueness constraints") { "[" + $0.entity.uniquenessConstraints.map { $0.joined(separator: ",") }.joined(separator: "; ") + "]" },
    ]

    /// An attribute's inputs (§1.3; a derived one hashes its expression, a composite one its elements).
    public static let attribute: [Field<Attribute>] = [
        Field("optional") { yes($0.isOptional) },
        Field("type") { $0.type.xmlValue },
        Field("allowsExternalBinaryDataStorage") { yes($0.allowsExternalBinaryDataStorage) },
        Field("preserveAfterDeletion") { yes($0.isPreservedAfterDeletion) },
        Field("versionHashModifier") { "'\($0.versionHashModifier ?? "")'" },
        Field("derived") { yes($0.isDerived) },
        Field("derivationExpression") { text($0.derivationExpression) },
        Field("composite") { $0.type == .composite ? text($0.compositeName) : "none" },
    ]

    /// A relationship's inputs (§1.4): `maxCount` as hashed (absent: 0 to-many, 1 to-one).
    public static let relationship: [Field<Relationship>] = [
        Field("optional") { yes($0.isOptional) },
        Field("destination") { text($0.destinationEntity) },
        Field("inverse") { text($0.inverseName) },
        Field("maxCount") { String(VersionHasher.effectiveMaxCount($0)) },
        Field("minCount") { String($0.minCount) },
        Field("ordered") { yes($0.isOrdered) },
        Field("versionHashModifier") { "'\($0.versionHashModifier ?? "")'" },
    ]

    static func yes(_ flag: Bool) -> String { flag ? "YES" : "NO" }
    static func text(_ value: String?) -> String { value.map { "'\($0)'" } ?? "none" }

    /// Every entity's inputs in `model` (inheritance resolved by the engine's resolver).
    public static func inputs(of model: ObjectModel) -> [String: EntityHashInputs] {
        let resolved = model.resolved()
        var result: [String: EntityHashInputs] = [:]
        for entity in resolved.entities where result[entity.name] == nil {
            result[entity.name] = EntityHashInputs(entity: entity.entity, parent: entity.parent,
                                                   attributes: entity.attributes, relationships: entity.relationships) {
                CompositeType.elements(of: $0, among: model.composites)
            }
        }
        return result
    }
}

/// One property's hash inputs: its kind and the table's field values, in table order.
public struct PropertyHashInputs: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case attribute, relationship
    }

    public var kind: Kind
    /// Values (or, in a lock, four-hex-digit digests of them) in the order of the kind's table.
    public var values: [String]
    /// A composite attribute's non-transient elements, by name (they are hashed in its place).
    public var elements: [String: PropertyHashInputs] = [:]

    public init(kind: Kind, values: [String], elements: [String: PropertyHashInputs] = [:]) {
        self.kind = kind
        self.values = values
        self.elements = elements
    }

    public init(_ attribute: Attribute, elements: (Attribute) -> [Attribute]) {
        kind = .attribute
        values = HashInputTable.attribute.map { $0.value(attribute) }
        if attribute.type == .composite, !attribute.isDerived {
            for element in elements(attribute) where !element.isTransient && self.elements[element.name] == nil {
                self.elements[element.name] = PropertyHashInputs(element, elements: { _ in [] })
            }
        }
    }

    public init(_ relationship: Relationship) {
        kind = .relationship
        values = HashInputTable.relationship.map { $0.value(relationship) }
    }

    /// The field names of this kind, in table order.
    public var fieldNames: [String] {
        switch kind {
        case .attribute: HashInputTable.attribute.map(\.name)
        case .relationship: HashInputTable.relationship.map(\.name)
        }
    }
}

/// One entity's hash inputs as a comparable value: two models need no migration exactly when
/// their dictionaries of these are equal (§1.7).
public struct EntityHashInputs: Sendable, Hashable {
    public var name: String
    /// The resolved parent's name (its own inputs are compared under its name).
    public var parent: String?
    /// Values (or digests) in the order of `HashInputTable.entity`.
    public var values: [String]
    /// Every hashed (non-transient) property, own and inherited, by name.
    public var properties: [String: PropertyHashInputs]
    /// Transient properties (not hashed), so a difference can say "now transient"; not part of
    /// equality, as they are no input.
    public var transient: Set<String> = []

    public static func == (lhs: EntityHashInputs, rhs: EntityHashInputs) -> Bool {
        lhs.name == rhs.name && lhs.parent == rhs.parent && lhs.values == rhs.values && lhs.properties == rhs.properties
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(parent)
        hasher.combine(values)
        hasher.combine(properties)
    }

    public init(name: String, parent: String?, values: [String], properties: [String: PropertyHashInputs], transient: Set<String> = []) {
        self.name = name
        self.parent = parent
        self.values = values
        self.properties = properties
        self.transient = transient
    }

    /// The inputs of `entity`, given its resolved parent and its properties own and inherited
    /// (attributes first: a name taken by both kinds keeps the attribute, as the engine does).
    public init(entity: Entity, parent: String?, attributes: [Attribute], relationships: [Relationship],
                elements: (Attribute) -> [Attribute]) {
        name = entity.name
        self.parent = parent
        values = HashInputTable.entity.map { $0.value((entity, parent)) }
        var properties: [String: PropertyHashInputs] = [:]
        var transient: Set<String> = []
        for attribute in attributes where properties[attribute.name] == nil && !transient.contains(attribute.name) {
            if attribute.isTransient { transient.insert(attribute.name) } else { properties[attribute.name] = PropertyHashInputs(attribute, elements: elements) }
        }
        for relationship in relationships where properties[relationship.name] == nil && !transient.contains(relationship.name) {
            if relationship.isTransient { transient.insert(relationship.name) } else { properties[relationship.name] = PropertyHashInputs(relationship) }
        }
        self.properties = properties
        self.transient = transient
    }

    /// A copy with every value replaced by four hex digits of `field=value` (what the lock
    /// records; `digest` gives 16 hex digits of FNV-1a): equal values give equal digests, and the
    /// digests name the field that changed.
    public func digested(_ digest: (String) -> String) -> EntityHashInputs {
        func fields(_ names: [String], _ values: [String]) -> [String] {
            // The low 16 bits of FNV-1a: its last step is a bijection on them, so two values of one
            // length that differ anywhere never share these four digits (the high ones can).
            zip(names, values).map { String(digest("\($0)=\($1)").suffix(4)) }
        }
        var copy = self
        copy.values = fields(HashInputTable.entity.map(\.name), values)
        copy.properties = properties.mapValues { property in
            var property = property
            property.values = fields(property.fieldNames, property.values)
            property.elements = [:]
            return property
        }
        copy.transient = []
        return copy
    }
}
