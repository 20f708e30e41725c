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
        public var entities: Int?
        public var attributes: Int?
        public var relationships: Int?
        public var legacyFormat: Bool
        public var current: Bool
        /// `userDefinedModelVersionIdentifier`, when set.
        public var versionIdentifier: String?

        enum CodingKeys: String, CodingKey {
            case name, entities, attributes, relationships, legacyFormat, current, versionIdentifier
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(entities, forKey: .entities)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(relationships, forKey: .relationships)
            try container.encode(legacyFormat, forKey: .legacyFormat)
            try container.encode(current, forKey: .current)
            try container.encode(versionIdentifier, forKey: .versionIdentifier)
        }
    }

    /// The full listing of one version (`--version`).
    public struct VersionDetail: Sendable, Hashable, Encodable {
        public var name: String
        public var path: String
        public var legacyFormat: Bool
        public var versionIdentifier: String?
        /// Entities in file order; nil when the version has no model.
        public var entities: [EntityDetail]?

        enum CodingKeys: String, CodingKey { case name, path, legacyFormat, versionIdentifier, entities }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(path, forKey: .path)
            try container.encode(legacyFormat, forKey: .legacyFormat)
            try container.encode(versionIdentifier, forKey: .versionIdentifier)
            try container.encode(entities, forKey: .entities)
        }
    }

    public struct EntityDetail: Sendable, Hashable, Encodable {
        public var name: String
        public var parent: String?
        public var abstract: Bool
        public var renamingIdentifier: String?
        public var line: Int?
        public var attributes: [AttributeDetail]
        public var relationships: [RelationshipDetail]

        enum CodingKeys: String, CodingKey {
            case name, parent, abstract, renamingIdentifier, line, attributes, relationships
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(parent, forKey: .parent)
            try container.encode(abstract, forKey: .abstract)
            try container.encode(renamingIdentifier, forKey: .renamingIdentifier)
            try container.encode(line, forKey: .line)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(relationships, forKey: .relationships)
        }
    }

    public struct AttributeDetail: Sendable, Hashable, Encodable {
        public var name: String
        public var type: String
        public var optional: Bool
        public var transient: Bool
        /// `defaultValueString`, or `defaultDateTimeInterval` for dates.
        public var defaultValue: String?
        public var renamingIdentifier: String?

        enum CodingKeys: String, CodingKey {
            case name, type, optional, transient, defaultValue = "default", renamingIdentifier
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(type, forKey: .type)
            try container.encode(optional, forKey: .optional)
            try container.encode(transient, forKey: .transient)
            try container.encode(defaultValue, forKey: .defaultValue)
            try container.encode(renamingIdentifier, forKey: .renamingIdentifier)
        }
    }

    public struct RelationshipDetail: Sendable, Hashable, Encodable {
        public var name: String
        public var destination: String?
        public var inverse: String?
        public var toMany: Bool
        public var ordered: Bool
        public var optional: Bool
        public var deletionRule: String
        public var renamingIdentifier: String?

        enum CodingKeys: String, CodingKey {
            case name, destination, inverse, toMany, ordered, optional, deletionRule, renamingIdentifier
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(destination, forKey: .destination)
            try container.encode(inverse, forKey: .inverse)
            try container.encode(toMany, forKey: .toMany)
            try container.encode(ordered, forKey: .ordered)
            try container.encode(optional, forKey: .optional)
            try container.encode(deletionRule, forKey: .deletionRule)
            try container.encode(renamingIdentifier, forKey: .renamingIdentifier)
        }
    }

    /// Display path of the bundle.
    public var bundle: String
    public var currentVersion: String?
    /// Versions in natural version order.
    public var versions: [VersionSummary]
    /// Sorted findings.
    public var diagnostics: [Diagnostic]
    /// The listing asked for with `--version`, else nil (and absent from JSON).
    public var version: VersionDetail?

    enum CodingKeys: String, CodingKey { case bundle, currentVersion, versions, diagnostics, version }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundle, forKey: .bundle)
        try container.encode(currentVersion, forKey: .currentVersion)
        try container.encode(versions, forKey: .versions)
        try container.encode(diagnostics, forKey: .diagnostics)
        try container.encodeIfPresent(version, forKey: .version)
    }

    /// Builds the report from a read result. `detailVersion` names the version to list in full;
    /// it is ignored when the bundle has no such version (check with `ModelBundle.version(named:)`).
    public init(result: ModelBundleReadResult, displayPath: String, detailVersion: String? = nil) {
        bundle = displayPath
        diagnostics = result.diagnostics.sorted()
        currentVersion = result.bundle?.currentVersion
        let current = currentVersion
        versions = (result.bundle?.versions ?? []).map { version in
            let model = version.model
            return VersionSummary(
                name: version.name,
                entities: model?.entities.count,
                attributes: model.map { $0.entities.reduce(0) { $0 + $1.attributes.count } },
                relationships: model.map { $0.entities.reduce(0) { $0 + $1.relationships.count } },
                legacyFormat: version.isLegacyFormat,
                current: version.name == current,
                versionIdentifier: model?.versionIdentifier
            )
        }
        if let detailVersion, let version = result.bundle?.version(named: detailVersion) {
            self.version = VersionDetail(
                name: version.name,
                path: version.path,
                legacyFormat: version.isLegacyFormat,
                versionIdentifier: version.model?.versionIdentifier,
                entities: version.model.map { $0.entities.map(Self.detail(of:)) }
            )
        }
    }

    static func detail(of entity: Entity) -> EntityDetail {
        EntityDetail(
            name: entity.name,
            parent: entity.parentEntity,
            abstract: entity.isAbstract,
            renamingIdentifier: entity.renamingIdentifier,
            line: entity.line,
            attributes: entity.attributes.map { attribute in
                AttributeDetail(
                    name: attribute.name,
                    type: attribute.type.xmlValue,
                    optional: attribute.isOptional,
                    transient: attribute.isTransient,
                    defaultValue: attribute.defaultValueString ?? attribute.defaultDateTimeInterval,
                    renamingIdentifier: attribute.renamingIdentifier
                )
            },
            relationships: entity.relationships.map { relationship in
                RelationshipDetail(
                    name: relationship.name,
                    destination: relationship.destinationEntity,
                    inverse: relationship.inverseName,
                    toMany: relationship.isToMany,
                    ordered: relationship.isOrdered,
                    optional: relationship.isOptional,
                    deletionRule: relationship.deletionRule.rawValue,
                    renamingIdentifier: relationship.renamingIdentifier
                )
            }
        )
    }

    /// 2 when a finding makes the input unusable, 1 for other errors, else 0.
    public var exitStatus: Int32 {
        if diagnostics.hasUnusableInput { return 2 }
        if diagnostics.contains(where: { $0.severity == .error }) { return 1 }
        return 0
    }

    /// Pretty-printed JSON with sorted keys and a trailing newline.
    public func jsonData() throws -> Data {
        try Self.encode(self)
    }

    /// Several inspections as one JSON array, in the order given.
    public static func jsonData(_ inspections: [ModelInspection]) throws -> Data {
        try encode(inspections)
    }

    private static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// A readable summary.
    public func text() -> String {
        var lines: [String] = []
        lines.append("Bundle: \(bundle)")
        lines.append("Current version: \(currentVersion.map { "'\($0)'" } ?? "none")")
        if !versions.isEmpty {
            lines.append("Versions (\(versions.count), natural order; * = current):")
            let width = min(versions.map(\.name.count).max() ?? 0, 48)
            for version in versions {
                let marker = version.current ? "*" : " "
                let padded = version.name.padding(toLength: max(width, version.name.count), withPad: " ", startingAt: 0)
                let summary: String
                if version.legacyFormat {
                    summary = "legacy binary format, not read"
                } else if let entities = version.entities, let attributes = version.attributes,
                          let relationships = version.relationships {
                    summary = "\(Self.count(entities, "entity", "entities")), "
                        + "\(Self.count(attributes, "attribute", "attributes")), "
                        + "\(Self.count(relationships, "relationship", "relationships"))"
                } else {
                    summary = "not readable"
                }
                lines.append("  \(marker) \(padded)  \(summary)")
            }
        }
        if let version {
            lines.append("")
            lines.append("Version '\(version.name)' (\(version.path))"
                + (version.versionIdentifier.map { ", identifier '\($0)'" } ?? ""))
            if let entities = version.entities {
                for entity in entities {
                    var heading = "  entity \(entity.name)"
                    if let parent = entity.parent { heading += " : \(parent)" }
                    if entity.abstract { heading += " (abstract)" }
                    if let renaming = entity.renamingIdentifier { heading += " [renaming ID '\(renaming)']" }
                    lines.append(heading)
                    for attribute in entity.attributes {
                        var line = "    \(attribute.name): \(attribute.type)"
                        if attribute.optional { line += ", optional" }
                        if attribute.transient { line += ", transient" }
                        if let value = attribute.defaultValue { line += ", default '\(value)'" }
                        if let renaming = attribute.renamingIdentifier { line += ", renaming ID '\(renaming)'" }
                        lines.append(line)
                    }
                    for relationship in entity.relationships {
                        var line = "    \(relationship.name) -> \(relationship.destination ?? "?")"
                        line += relationship.toMany ? (relationship.ordered ? ", to-many ordered" : ", to-many") : ", to-one"
                        if relationship.optional { line += ", optional" }
                        if let inverse = relationship.inverse { line += ", inverse '\(inverse)'" }
                        line += ", \(relationship.deletionRule)"
                        if let renaming = relationship.renamingIdentifier { line += ", renaming ID '\(renaming)'" }
                        lines.append(line)
                    }
                }
            } else {
                lines.append(version.legacyFormat ? "  (legacy binary format, not read)" : "  (not readable)")
            }
        }
        lines.append("")
        if diagnostics.isEmpty {
            lines.append("No findings.")
        } else {
            lines.append("Findings:")
            for diagnostic in diagnostics {
                let location = diagnostic.location.map { "\($0): " } ?? ""
                lines.append("  \(location)\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(value) \(value == 1 ? singular : plural)"
    }
}
