import ChainPlanCore
import Foundation

/// What `chainplan inspect` reports about a model bundle: its versions in natural order with
/// declared-property counts, the current version, the findings, and optionally the full entity
/// listing of one version.
///
/// Counts are of declared (not inherited) properties of entities; composite type members are
/// not counted. Counts are null for versions without a model (legacy or unreadable).
package struct ModelInspection: Sendable, Hashable, Encodable {
    /// One row per version.
    package struct VersionSummary: Sendable, Hashable, Encodable {
        package var name: String
        @ExplicitNull package var entities: Int?
        @ExplicitNull package var attributes: Int?
        @ExplicitNull package var relationships: Int?
        package var legacyFormat: Bool
        package var current: Bool
        /// `userDefinedModelVersionIdentifier`, when set.
        @ExplicitNull package var versionIdentifier: String?
        /// Every entity in an inheritance hierarchy (with a parent or subentities), in file
        /// order; empty when there is none, nil when the version has no model.
        @ExplicitNull package var inheritance: [InheritanceEntry]?

        package init(name: String, entities: Int?, attributes: Int?, relationships: Int?, legacyFormat: Bool, current: Bool,
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
    package struct InheritanceEntry: Sendable, Hashable, Encodable {
        package var entity: String
        /// The parent entity; nil for a root.
        package var parent: String?
        /// The topmost ancestor (the entity itself for a root).
        package var root: String
        package var abstract: Bool
    }

    /// The full listing of one version (`--version`).
    package struct VersionDetail: Sendable, Hashable, Encodable {
        package var name: String
        package var path: String
        package var legacyFormat: Bool
        @ExplicitNull package var versionIdentifier: String?
        /// Entities in file order; nil when the version has no model.
        @ExplicitNull package var entities: [EntityDetail]?

        enum CodingKeys: String, CodingKey { case name, path, legacyFormat, versionIdentifier, entities }
    }

    package struct EntityDetail: Sendable, Hashable, Encodable {
        package var name: String
        @ExplicitNull package var parent: String?
        package var abstract: Bool
        @ExplicitNull package var renamingIdentifier: String?
        @ExplicitNull package var line: Int?
        /// Declared attributes and relationships.
        package var attributes: [AttributeDetail]
        package var relationships: [RelationshipDetail]
        /// The topmost ancestor (the entity itself when it has no parent).
        package var root: String
        /// Direct subentities, in file order.
        package var subentities: [String]
        /// Properties inherited from ancestors (root-most first), each with `inheritedFrom`.
        package var inheritedAttributes: [AttributeDetail]
        package var inheritedRelationships: [RelationshipDetail]

        enum CodingKeys: String, CodingKey {
            case name, parent, abstract, renamingIdentifier, line, attributes, relationships
            case root, subentities, inheritedAttributes, inheritedRelationships
        }
    }

    package struct AttributeDetail: Sendable, Hashable, Encodable {
        package var name: String
        package var type: String
        package var optional: Bool
        package var transient: Bool
        /// `defaultValueString`, or `defaultDateTimeInterval` for dates.
        @ExplicitNull package var defaultValue: String?
        @ExplicitNull package var renamingIdentifier: String?
        /// `minValueString`, or `minDateTimeInterval` for dates.
        @ExplicitNull package var minimum: String?
        /// `maxValueString`, or `maxDateTimeInterval` for dates.
        @ExplicitNull package var maximum: String?
        package var indexed: Bool = false
        /// The derivation expression of a derived attribute.
        @ExplicitNull package var derivation: String?
        @ExplicitNull package var valueTransformer: String?
        package var externalStorage: Bool = false
        @ExplicitNull package var customClass: String?
        /// The ancestor that declares it, for an inherited attribute.
        @ExplicitNull package var inheritedFrom: String?

        enum CodingKeys: String, CodingKey {
            case name, type, optional, transient, defaultValue = "default", renamingIdentifier
            case minimum, maximum, indexed, derivation, valueTransformer, externalStorage, customClass, inheritedFrom
        }
    }

    package struct RelationshipDetail: Sendable, Hashable, Encodable {
        package var name: String
        @ExplicitNull package var destination: String?
        @ExplicitNull package var inverse: String?
        package var toMany: Bool
        package var ordered: Bool
        package var optional: Bool
        package var deletionRule: String
        @ExplicitNull package var renamingIdentifier: String?
        /// The ancestor that declares it, for an inherited relationship.
        @ExplicitNull package var inheritedFrom: String?

        enum CodingKeys: String, CodingKey {
            case name, destination, inverse, toMany, ordered, optional, deletionRule, renamingIdentifier, inheritedFrom
        }
    }

    /// Display path of the bundle.
    package var bundle: String
    @ExplicitNull package var currentVersion: String?
    /// Versions in natural version order.
    package var versions: [VersionSummary]
    /// Sorted findings.
    package var diagnostics: [Diagnostic]
    /// The listing asked for with `--version`, else nil (and absent from JSON).
    package var version: VersionDetail?

    enum CodingKeys: String, CodingKey { case bundle, currentVersion, versions, diagnostics, version }

    /// Builds the report from a read result. `detailVersion` names the version to list in full;
    /// it is ignored when the bundle has no such version (check with `ModelBundle.version(named:)`).
    package init(result: ModelBundleReadResult, displayPath: String, detailVersion: String? = nil) {
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
