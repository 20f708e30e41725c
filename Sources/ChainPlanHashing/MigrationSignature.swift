/// Everything in an `ObjectModel` that affects Core Data's entity version hashes, as a
/// canonical, order-independent value.
///
/// Two models with equal `entities` are *hash-equivalent*: Core Data computes the same
/// entity version hashes for both, so a store made by one opens with the other without a
/// migration, and a mapping model made for one is found for the other. Apple's hash
/// algorithm is undocumented (`shared/reference/core-data.md` §5.4), so chainplan compares the *inputs*
/// of the hash instead of the hash itself.
///
/// Fields included (reference: `shared/reference/core-data.md`, part 1 "What changes the
/// version hash" and part 2 §2.3, which quotes *Understanding Versions* and the
/// `versionHash` API pages of `NSEntityDescription`, `NSPropertyDescription`,
/// `NSAttributeDescription` and `NSRelationshipDescription`):
/// - entity: `name`, parent entity (the superentity's hash is an input; see
///   `lineage(of:)` for comparing an entity together with its ancestors), `isAbstract`,
///   `versionHashModifier`, and the signatures of its declared properties;
/// - property: `name`, `isOptional`, `isTransient`, `versionHashModifier`
///   (`isReadOnly` is also an input but cannot be expressed in `contents` XML, so it is
///   always false and is left out);
/// - attribute: `attributeType`; for a composite attribute (iOS 17), each element of its
///   type as a property of its own, named `attribute.element` (an inference: the elements are
///   stored columns, and an edited composite type must not look hash-equivalent);
/// - relationship: destination entity, `minCount`, `maxCount`, delete rule (listed by
///   *Understanding Versions* although the `NSRelationshipDescription.versionHash` page
///   omits it), inverse relationship name, and to-many (Xcode derives `maxCount` from
///   it, so it is part of the cardinality the hash sees).
///
/// Deliberately excluded, because Apple lists them as not compared or does not list them:
/// class names, `userInfo`, validation (min/max/regex), default values, code generation,
/// indexes, uniqueness constraints, `isOrdered`, external binary storage, value
/// transformers, fetched properties and the model's version identifier.
///
/// Renaming identifiers (XML `elementID`) are not documented as hash inputs, but they
/// decide how Core Data pairs entities and properties when it infers a mapping (§2.2).
/// They are kept apart in `renamingIdentifiers`, so callers can compare with them
/// (`==` on the whole signature) or without them (`entities` only).
public struct MigrationSignature: Sendable, Hashable {
    /// Hash-relevant signature of each entity, keyed by entity name.
    public var entities: [String: EntitySignature]
    /// Renaming identifiers, kept apart from the hash-relevant fields.
    public var renamingIdentifiers: RenamingIdentifiers

    public init(entities: [String: EntitySignature], renamingIdentifiers: RenamingIdentifiers = RenamingIdentifiers()) {
        self.entities = entities
        self.renamingIdentifiers = renamingIdentifiers
    }

    /// The signature of `model`.
    ///
    /// When a model (invalidly) declares an entity or a property name twice, the last
    /// declaration wins; the model reader reports such duplicates separately (CP115).
    public init(_ model: ObjectModel) {
        var entities: [String: EntitySignature] = [:]
        var renaming = RenamingIdentifiers()
        for entity in model.entities {
            var properties: [String: PropertySignature] = [:]
            var propertyIdentifiers: [String: String] = [:]
            // A composite attribute's elements are stored attributes of their own (as
            // `attribute.element`): editing the composite type changes what the store holds.
            let stored = entity.attributes.contains { $0.type == .composite }
                ? entity.attributes.flatMap { [$0] + CompositeType.elements(of: $0, among: model.composites) }
                : entity.attributes
            for attribute in stored {
                properties[attribute.name] = PropertySignature(
                    name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                    versionHashModifier: attribute.versionHashModifier.nonEmpty,
                    kind: .attribute(type: attribute.type))
                propertyIdentifiers[attribute.name] = attribute.renamingIdentifier.nonEmpty
            }
            for relationship in entity.relationships {
                properties[relationship.name] = PropertySignature(
                    name: relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
                    versionHashModifier: relationship.versionHashModifier.nonEmpty,
                    kind: .relationship(RelationshipSignature(
                        destinationEntity: relationship.destinationEntity.nonEmpty,
                        minCount: relationship.minCount, maxCount: relationship.maxCount,
                        deletionRule: relationship.deletionRule, inverseName: relationship.inverseName.nonEmpty,
                        isToMany: relationship.isToMany)))
                propertyIdentifiers[relationship.name] = relationship.renamingIdentifier.nonEmpty
            }
            entities[entity.name] = EntitySignature(
                name: entity.name, parentEntity: entity.parentEntity.nonEmpty, isAbstract: entity.isAbstract,
                versionHashModifier: entity.versionHashModifier.nonEmpty, properties: properties)
            renaming.entities[entity.name] = entity.renamingIdentifier.nonEmpty
            renaming.properties[entity.name] = propertyIdentifiers.isEmpty ? nil : propertyIdentifiers
        }
        self.entities = entities
        self.renamingIdentifiers = renaming
    }

    /// The hash-relevant part only (renaming identifiers dropped).
    public var withoutRenamingIdentifiers: MigrationSignature {
        MigrationSignature(entities: entities)
    }

    /// The entity and its ancestors, nearest first (cycle-safe, bounded by the entity count).
    ///
    /// Core Data's entity hash includes the superentity's hash, so an entity is
    /// hash-equivalent across two models only when its whole lineage is equal.
    public func lineage(of entityName: String) -> [EntitySignature] {
        var result: [EntitySignature] = []
        var seen: Set<String> = []
        var next: String? = entityName
        while let name = next, !seen.contains(name), let entity = entities[name] {
            seen.insert(name)
            result.append(entity)
            next = entity.parentEntity
        }
        return result
    }

    /// True when `entityName` has the same hash-relevant fields, ancestors included, in both.
    public func isHashEquivalent(entity entityName: String, in other: MigrationSignature) -> Bool {
        let mine = lineage(of: entityName)
        return !mine.isEmpty && mine == other.lineage(of: entityName)
    }

    /// A copy in which the given fields hold neutral values, for comparing against a
    /// snapshot that does not record them.
    public func masking(_ fields: Set<SignatureField>) -> MigrationSignature {
        guard !fields.isEmpty else { return self }
        var copy = self
        for (name, entity) in entities {
            copy.entities[name] = entity.masking(fields)
        }
        if fields.contains(.entityRenamingIdentifier) { copy.renamingIdentifiers.entities = [:] }
        if fields.contains(.propertyRenamingIdentifier) { copy.renamingIdentifiers.properties = [:] }
        return copy
    }

    /// Human-readable differences from `self` (old) to `other` (new), sorted by entity
    /// then property, e.g. `entity 'Game': attribute 'isFavorite' optional true → false`.
    ///
    /// Empty exactly when the two signatures are equal (under the chosen comparison).
    public func differences(to other: MigrationSignature, includingRenamingIdentifiers: Bool = true) -> [String] {
        var lines: [String] = []
        let names = Set(entities.keys).union(other.entities.keys).sorted()
        for name in names {
            switch (entities[name], other.entities[name]) {
            case (nil, .some):
                lines.append("entity '\(name)' added")
            case (.some, nil):
                lines.append("entity '\(name)' removed")
            case let (old?, new?):
                lines += old.differences(to: new).map { "entity '\(name)': \($0)" }
            case (nil, nil):
                break
            }
            guard includingRenamingIdentifiers, entities[name] != nil, other.entities[name] != nil else { continue }
            let oldID = renamingIdentifiers.entities[name]
            let newID = other.renamingIdentifiers.entities[name]
            if oldID != newID {
                lines.append("entity '\(name)': renaming identifier \(Self.show(oldID)) → \(Self.show(newID))")
            }
            let oldProps = renamingIdentifiers.properties[name] ?? [:]
            let newProps = other.renamingIdentifiers.properties[name] ?? [:]
            let shared = Set(entities[name]?.properties.keys.map { $0 } ?? [])
                .intersection(other.entities[name]?.properties.keys.map { $0 } ?? [])
            for property in shared.sorted() where oldProps[property] != newProps[property] {
                lines.append("entity '\(name)': property '\(property)' renaming identifier \(Self.show(oldProps[property])) → \(Self.show(newProps[property]))")
            }
        }
        return lines
    }

    /// A deterministic text form (one line per entity and property, sorted), suitable for
    /// fingerprints: equal signatures give equal text and vice versa.
    public var canonicalText: String {
        var lines: [String] = []
        for name in entities.keys.sorted() {
            guard let entity = entities[name] else { continue }
            lines.append(entity.canonicalHeader + " id=" + Self.quote(renamingIdentifiers.entities[name]))
            let ids = renamingIdentifiers.properties[name] ?? [:]
            for property in entity.properties.keys.sorted() {
                guard let signature = entity.properties[property] else { continue }
                lines.append("  " + signature.canonicalText + " id=" + Self.quote(ids[property]))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func show(_ value: String?) -> String { value.map { "'\($0)'" } ?? "none" }

    /// JSON-style quoting so that any name (even with quotes or newlines) stays on one line.
    /// `bidiVisible`: bidirectional controls are escaped too, for text people read (the lock).
    package static func quote(_ value: String?, bidiVisible: Bool = false) -> String {
        guard let value else { return "-" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (bidiVisible && MarkupText.isBidiControl(scalar)) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: bidiVisible) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Renaming identifiers of a model, kept apart from the hash-relevant signature.
public struct RenamingIdentifiers: Sendable, Hashable {
    /// Entity name → renaming identifier (only entities that set one).
    public var entities: [String: String]
    /// Entity name → property name → renaming identifier (only properties that set one).
    public var properties: [String: [String: String]]

    public init(entities: [String: String] = [:], properties: [String: [String: String]] = [:]) {
        self.entities = entities
        self.properties = properties
    }
}

/// The hash-relevant fields of one entity (declared properties only; inherited ones are
/// covered by the parent's signature, see `MigrationSignature.lineage(of:)`).
public struct EntitySignature: Sendable, Hashable {
    public var name: String
    public var parentEntity: String?
    public var isAbstract: Bool
    public var versionHashModifier: String?
    /// Declared properties keyed by name.
    public var properties: [String: PropertySignature]

    public init(name: String, parentEntity: String? = nil, isAbstract: Bool = false,
                versionHashModifier: String? = nil, properties: [String: PropertySignature] = [:]) {
        self.name = name
        self.parentEntity = parentEntity
        self.isAbstract = isAbstract
        self.versionHashModifier = versionHashModifier
        self.properties = properties
    }

    func masking(_ fields: Set<SignatureField>) -> EntitySignature {
        var copy = self
        if fields.contains(.entityParent) { copy.parentEntity = nil }
        if fields.contains(.entityAbstract) { copy.isAbstract = false }
        if fields.contains(.entityVersionHashModifier) { copy.versionHashModifier = nil }
        for (name, property) in properties {
            copy.properties[name] = property.masking(fields)
        }
        return copy
    }

    /// Differences from `self` (old) to `other` (new), without the `entity 'X': ` prefix.
    public func differences(to other: EntitySignature) -> [String] {
        var lines: [String] = []
        if parentEntity != other.parentEntity {
            lines.append("parent \(MigrationSignature.show(parentEntity)) → \(MigrationSignature.show(other.parentEntity))")
        }
        if isAbstract != other.isAbstract {
            lines.append("abstract \(isAbstract) → \(other.isAbstract)")
        }
        if versionHashModifier != other.versionHashModifier {
            lines.append("version hash modifier \(MigrationSignature.show(versionHashModifier)) → \(MigrationSignature.show(other.versionHashModifier))")
        }
        for name in Set(properties.keys).union(other.properties.keys).sorted() {
            switch (properties[name], other.properties[name]) {
            case (nil, let new?):
                lines.append("\(new.kindWord) '\(name)' added")
            case (let old?, nil):
                lines.append("\(old.kindWord) '\(name)' removed")
            case let (old?, new?):
                lines += old.differences(to: new)
            case (nil, nil):
                break
            }
        }
        return lines
    }

    package var canonicalHeader: String {
        "entity " + MigrationSignature.quote(name) + " parent=" + MigrationSignature.quote(parentEntity)
            + " abstract=" + (isAbstract ? "1" : "0") + " vhm=" + MigrationSignature.quote(versionHashModifier)
    }
}

/// The hash-relevant fields of one property.
public struct PropertySignature: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case attribute(type: AttributeType)
        case relationship(RelationshipSignature)
    }

    public var name: String
    public var isOptional: Bool
    public var isTransient: Bool
    public var versionHashModifier: String?
    public var kind: Kind

    public init(name: String, isOptional: Bool, isTransient: Bool, versionHashModifier: String? = nil, kind: Kind) {
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.versionHashModifier = versionHashModifier
        self.kind = kind
    }

    var kindWord: String {
        switch kind {
        case .attribute: "attribute"
        case .relationship: "relationship"
        }
    }

    func masking(_ fields: Set<SignatureField>) -> PropertySignature {
        var copy = self
        if fields.contains(.propertyOptional) { copy.isOptional = false }
        if fields.contains(.propertyTransient) { copy.isTransient = false }
        if fields.contains(.propertyVersionHashModifier) { copy.versionHashModifier = nil }
        switch kind {
        case .attribute:
            if fields.contains(.attributeType) { copy.kind = .attribute(type: .undefined) }
        case .relationship(var relationship):
            if fields.contains(.relationshipDestination) { relationship.destinationEntity = nil }
            if fields.contains(.relationshipMinCount) { relationship.minCount = 0 }
            if fields.contains(.relationshipMaxCount) { relationship.maxCount = 0 }
            if fields.contains(.relationshipDeletionRule) { relationship.deletionRule = .nullify }
            if fields.contains(.relationshipInverse) { relationship.inverseName = nil }
            if fields.contains(.relationshipToMany) { relationship.isToMany = false }
            copy.kind = .relationship(relationship)
        }
        return copy
    }

    /// Differences from `self` (old) to `other` (new), each starting with the property.
    public func differences(to other: PropertySignature) -> [String] {
        let subject = "\(kindWord) '\(name)'"
        var lines: [String] = []
        switch (kind, other.kind) {
        case (.attribute, .relationship), (.relationship, .attribute):
            return ["property '\(name)' changes from \(kindWord) to \(other.kindWord)"]
        case let (.attribute(oldType), .attribute(newType)):
            if oldType != newType { lines.append("\(subject) type \(oldType.xmlValue) → \(newType.xmlValue)") }
        case let (.relationship(old), .relationship(new)):
            if old.destinationEntity != new.destinationEntity {
                lines.append("\(subject) destination \(MigrationSignature.show(old.destinationEntity)) → \(MigrationSignature.show(new.destinationEntity))")
            }
            if old.isToMany != new.isToMany { lines.append("\(subject) to-many \(old.isToMany) → \(new.isToMany)") }
            if old.minCount != new.minCount { lines.append("\(subject) minimum count \(old.minCount) → \(new.minCount)") }
            if old.maxCount != new.maxCount { lines.append("\(subject) maximum count \(old.maxCount) → \(new.maxCount)") }
            if old.deletionRule != new.deletionRule {
                lines.append("\(subject) deletion rule \(old.deletionRule.rawValue) → \(new.deletionRule.rawValue)")
            }
            if old.inverseName != new.inverseName {
                lines.append("\(subject) inverse \(MigrationSignature.show(old.inverseName)) → \(MigrationSignature.show(new.inverseName))")
            }
        }
        if isOptional != other.isOptional { lines.append("\(subject) optional \(isOptional) → \(other.isOptional)") }
        if isTransient != other.isTransient { lines.append("\(subject) transient \(isTransient) → \(other.isTransient)") }
        if versionHashModifier != other.versionHashModifier {
            lines.append("\(subject) version hash modifier \(MigrationSignature.show(versionHashModifier)) → \(MigrationSignature.show(other.versionHashModifier))")
        }
        return lines
    }

    package var canonicalText: String {
        var text = kindWord + " " + MigrationSignature.quote(name) + " optional=" + (isOptional ? "1" : "0")
            + " transient=" + (isTransient ? "1" : "0") + " vhm=" + MigrationSignature.quote(versionHashModifier)
        switch kind {
        case .attribute(let type):
            text += " type=" + MigrationSignature.quote(type.xmlValue)
        case .relationship(let relationship):
            text += " destination=" + MigrationSignature.quote(relationship.destinationEntity)
                + " toMany=" + (relationship.isToMany ? "1" : "0")
                + " min=\(relationship.minCount) max=\(relationship.maxCount)"
                + " delete=" + MigrationSignature.quote(relationship.deletionRule.rawValue)
                + " inverse=" + MigrationSignature.quote(relationship.inverseName)
        }
        return text
    }
}

/// The hash-relevant fields of a relationship.
public struct RelationshipSignature: Sendable, Hashable {
    public var destinationEntity: String?
    public var minCount: Int
    public var maxCount: Int
    public var deletionRule: DeletionRule
    public var inverseName: String?
    public var isToMany: Bool

    public init(destinationEntity: String?, minCount: Int = 0, maxCount: Int = 0, deletionRule: DeletionRule = .nullify,
                inverseName: String? = nil, isToMany: Bool = false) {
        self.destinationEntity = destinationEntity
        self.minCount = minCount
        self.maxCount = maxCount
        self.deletionRule = deletionRule
        self.inverseName = inverseName
        self.isToMany = isToMany
    }
}

extension Optional where Wrapped == String {
    /// nil for nil and for the empty string (Xcode writes both for "not set").
    fileprivate var nonEmpty: String? {
        switch self {
        case .some(let value) where !value.isEmpty: value
        default: nil
        }
    }
}
