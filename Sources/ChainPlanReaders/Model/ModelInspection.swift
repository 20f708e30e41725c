import ChainPlanCore
import Foundation

/// What `chainplan inspect` reports about a model bundle: its versions in natural order with
/// declared-property counts, the current version, the findings, and optionally the full entity
/// listing of one version.
///
/// Counts are of declared (not inherited) properties of entities; composite type members are
/// not counted. Counts are null for versions without a model (legacy or unreadable).
public struct ModelInspection: Sendable, Hashable, Encodable {
    /// One row per version.
    public struct VersionSummary: Sendable, Hashable, Encodable {
        public var name: String
        @ExplicitNull public var entities: Int?
        @ExplicitNull public var attributes: Int?
        @ExplicitNull public var relationships: Int?
        public var legacyFormat: Bool
        public var current: Bool
        /// `userDefinedModelVersionIdentifier`, when set.
        @ExplicitNull public var versionIdentifier: String?
        /// Every entity in an inheritance hierarchy (with a parent or subentities), in file
        /// order; empty when there is none, nil when the version has no model.
        @ExplicitNull public var inheritance: [InheritanceEntry]?

        public init(name: String, entities: Int?, attributes: Int?, relationships: Int?, legacyFormat: Bool, current: Bool,
                    versionIdentifier: String?, inheritance: [InheritanceEntry]? = nil) {
            self.name = name
            self.entities = entities
            self.attributes = attributes
            self.relationships = relationships
            self.legacyFormat = legacyFormat
            self.current = current
            self.versionIdentifier = versionIdentifier
            self.inheritance = inheritance
        }

        enum CodingKeys: String, CodingKey {
            case name, entities, attributes, relationships, legacyFormat, current, versionIdentifier, inheritance
        }
    }

    /// An entity's place in its inheritance hierarchy.
    public struct InheritanceEntry: Sendable, Hashable, Encodable {
        public var entity: String
        /// The parent entity; nil for a root.
        public var parent: String?
        /// The topmost ancestor (the entity itself for a root).
        public var root: String
        public var abstract: Bool
    }

    /// The full listing of one version (`--version`).
    public struct VersionDetail: Sendable, Hashable, Encodable {
        public var name: String
        public var path: String
        public var legacyFormat: Bool
        @ExplicitNull public var versionIdentifier: String?
        /// Entities in file order; nil when the version has no model.
        @ExplicitNull public var entities: [EntityDetail]?

        enum CodingKeys: String, CodingKey { case name, path, legacyFormat, versionIdentifier, entities }
    }

    public struct EntityDetail: Sendable, Hashable, Encodable {
        public var name: String
        @ExplicitNull public var parent: String?
        public var abstract: Bool
        @ExplicitNull public var renamingIdentifier: String?
        @ExplicitNull public var line: Int?
        /// Declared attributes and relationships.
        public var attributes: [AttributeDetail]
        public var relationships: [RelationshipDetail]
        /// The topmost ancestor (the entity itself when it has no parent).
        public var root: String
        /// Direct subentities, in file order.
        public var subentities: [String]
        /// Properties inherited from ancestors (root-most first), each with `inheritedFrom`.
        public var inheritedAttributes: [AttributeDetail]
        public var inheritedRelationships: [RelationshipDetail]

        enum CodingKeys: String, CodingKey {
            case name, parent, abstract, renamingIdentifier, line, attributes, relationships
            case root, subentities, inheritedAttributes, inheritedRelationships
        }
    }

    public struct AttributeDetail: Sendable, Hashable, Encodable {
        public var name: String
        public var type: String
        public var optional: Bool
        public var transient: Bool
        /// `defaultValueString`, or `defaultDateTimeInterval` for dates.
        @ExplicitNull public var defaultValue: String?
        @ExplicitNull public var renamingIdentifier: String?
        /// `minValueString`, or `minDateTimeInterval` for dates.
        @ExplicitNull public var minimum: String?
        /// `maxValueString`, or `maxDateTimeInterval` for dates.
        @ExplicitNull public var maximum: String?
        public var indexed: Bool = false
        /// The derivation expression of a derived attribute.
        @ExplicitNull public var derivation: String?
        @ExplicitNull public var valueTransformer: String?
        public var externalStorage: Bool = false
        @ExplicitNull public var customClass: String?
        /// The ancestor that declares it, for an inherited attribute.
        @ExplicitNull public var inheritedFrom: String?

        enum CodingKeys: String, CodingKey {
            case name, type, optional, transient, defaultValue = "default", renamingIdentifier
            case minimum, maximum, indexed, derivation, valueTransformer, externalStorage, customClass, inheritedFrom
        }
    }

    public struct RelationshipDetail: Sendable, Hashable, Encodable {
        public var name: String
        @ExplicitNull public var destination: String?
        @ExplicitNull public var inverse: String?
        public var toMany: Bool
        public var ordered: Bool
        public var optional: Bool
        public var deletionRule: String
        @ExplicitNull public var renamingIdentifier: String?
        /// The ancestor that declares it, for an inherited relationship.
        @ExplicitNull public var inheritedFrom: String?

        enum CodingKeys: String, CodingKey {
            case name, destination, inverse, toMany, ordered, optional, deletionRule, renamingIdentifier, inheritedFrom
        }
    }

    /// Display path of the bundle.
    public var bundle: String
    @ExplicitNull public var currentVersion: String?
    /// Versions in natural version order.
    public var versions: [VersionSummary]
    /// Sorted findings.
    public var diagnostics: [Diagnostic]
    /// The listing asked for with `--version`, else nil (and absent from JSON).
    public var version: VersionDetail?

    enum CodingKeys: String, CodingKey { case bundle, currentVersion, versions, diagnostics, version }

    /// Builds the report from a read result. `detailVersion` names the version to list in full;
    /// it is ignored when the bundle has no such version (check with `ModelBundle.version(named:)`).
    public init(result: ModelBundleReadResult, displayPath: String, detailVersion: String? = nil) {
        bundle = displayPath
        diagnostics = result.diagnostics.sorted()
        let current = result.bundle?.currentVersion
        currentVersion = current
        versions = (result.bundle?.versions ?? []).map { version in
            let model = version.model
            let resolved = model.flatMap { $0.entities.contains { $0.parentEntity != nil } ? $0.resolved() : nil }
            return VersionSummary(
                name: version.name,
                entities: model?.entities.count,
                attributes: model.map { $0.entities.reduce(0) { $0 + $1.attributes.count } },
                relationships: model.map { $0.entities.reduce(0) { $0 + $1.relationships.count } },
                legacyFormat: version.isLegacyFormat,
                current: version.name == current,
                versionIdentifier: model?.versionIdentifier,
                inheritance: model.map { _ in
                    (resolved?.entities ?? []).filter { $0.parent != nil || !$0.subentities.isEmpty }.map {
                        InheritanceEntry(entity: $0.name, parent: $0.parent, root: $0.rootEntityName, abstract: $0.entity.isAbstract)
                    }
                }
            )
        }
        if let detailVersion, let version = result.bundle?.version(named: detailVersion) {
            self.version = VersionDetail(
                name: version.name,
                path: version.path,
                legacyFormat: version.isLegacyFormat,
                versionIdentifier: version.model?.versionIdentifier,
                entities: version.model.map { model in
                    let resolved = model.resolved()
                    return model.entities.indices.map { index in
                        let entity = model.entities[index]
                        let aligned = index < resolved.entities.count && resolved.entities[index].name == entity.name
                        return Self.detail(of: entity, resolved: aligned ? resolved.entities[index] : resolved.entity(named: entity.name))
                    }
                }
            )
        }
    }

    /// `resolved` is the same entity resolved against its ancestors (nil: no inheritance shown).
    static func detail(of entity: Entity, resolved: ResolvedEntity? = nil) -> EntityDetail {
        let usable = resolved.flatMap { $0.name == entity.name ? $0 : nil }
        let inherited = usable?.inheritedFrom ?? [:]
        return EntityDetail(
            name: entity.name,
            parent: entity.parentEntity,
            abstract: entity.isAbstract,
            renamingIdentifier: entity.renamingIdentifier,
            line: entity.line,
            attributes: entity.attributes.map { detail(of: $0, inheritedFrom: nil) },
            relationships: entity.relationships.map { detail(of: $0, inheritedFrom: nil) },
            root: usable?.rootEntityName ?? entity.name,
            subentities: usable?.subentities ?? [],
            inheritedAttributes: (usable?.attributes ?? []).compactMap { attribute in
                inherited[attribute.name].map { detail(of: attribute, inheritedFrom: $0) }
            },
            inheritedRelationships: (usable?.relationships ?? []).compactMap { relationship in
                inherited[relationship.name].map { detail(of: relationship, inheritedFrom: $0) }
            }
        )
    }

    static func detail(of attribute: Attribute, inheritedFrom: String?) -> AttributeDetail {
        AttributeDetail(
            name: attribute.name,
            type: attribute.type.xmlValue,
            optional: attribute.isOptional,
            transient: attribute.isTransient,
            defaultValue: attribute.defaultValueString ?? attribute.defaultDateTimeInterval,
            renamingIdentifier: attribute.renamingIdentifier,
            minimum: attribute.minValueString ?? attribute.minDateTimeInterval,
            maximum: attribute.maxValueString ?? attribute.maxDateTimeInterval,
            indexed: attribute.isIndexed,
            derivation: attribute.isDerived ? (attribute.derivationExpression ?? "") : nil,
            valueTransformer: attribute.valueTransformerName,
            externalStorage: attribute.allowsExternalBinaryDataStorage,
            customClass: attribute.customClassName,
            inheritedFrom: inheritedFrom
        )
    }

    static func detail(of relationship: Relationship, inheritedFrom: String?) -> RelationshipDetail {
        RelationshipDetail(
            name: relationship.name,
            destination: relationship.destinationEntity,
            inverse: relationship.inverseName,
            toMany: relationship.isToMany,
            ordered: relationship.isOrdered,
            optional: relationship.isOptional,
            deletionRule: relationship.deletionRule.rawValue,
            renamingIdentifier: relationship.renamingIdentifier,
            inheritedFrom: inheritedFrom
        )
    }
}
