import ChainPlanCore
import ChainPlanReaders
import Foundation

/// `chainplan inspect`'s renderings of a `ModelInspection`: JSON and the readable text.
extension ModelInspection {
    /// Pretty-printed JSON with sorted keys and a trailing newline, in chainplan's envelope.
    package func jsonData() -> Data {
        JSONEnvelope.encode(self)
    }

    /// Several inspections as `{"bundles": [...]}` in chainplan's envelope, in the order given.
    package static func jsonData(_ inspections: [ModelInspection]) -> Data {
        JSONEnvelope.encode(inspections, as: "bundles")
    }

    /// A readable summary for the terminal.
    package func text() -> String {
        var lines: [String] = []
        lines.append("Bundle: \(bundle)")
        lines.append("Current version: \(currentVersion.map { "'\($0)'" } ?? "none")")
        if !versions.isEmpty {
            lines.append("Versions (\(versions.count), natural order; * = current):")
            let width = min(versions.map(\.name.count).max() ?? 0, 48)
            for version in versions {
                let marker = version.current ? "*" : " "
                let padded = version.name.padding(toLength: max(width, version.name.count), withPad: " ", startingAt: 0)
                var summary: String
                if let entities = version.entities, let attributes = version.attributes,
                   let relationships = version.relationships {
                    summary = "\(Self.count(entities, "entity", "entities")), "
                        + "\(Self.count(attributes, "attribute", "attributes")), "
                        + "\(Self.count(relationships, "relationship", "relationships"))"
                    if version.legacyFormat { summary += " (legacy binary format, decoded from 'elements')" }
                } else {
                    summary = version.legacyFormat ? "legacy binary format, cannot be decoded" : "not readable"
                }
                lines.append("  \(marker) \(padded)  \(summary)")
                if let inheritance = version.inheritance, !inheritance.isEmpty {
                    lines.append("      " + Self.inheritanceLine(inheritance))
                }
            }
        }
        if let version {
            lines.append("")
            lines.append("Version '\(version.name)' (\(version.path))"
                + (version.versionIdentifier.map { ", identifier '\($0)'" } ?? ""))
            if let entities = version.entities {
                if version.legacyFormat {
                    lines.append("  (legacy binary format, decoded from its 'elements' archive; no line numbers)")
                }
                for entity in entities {
                    var heading = "  entity \(entity.name)"
                    if let parent = entity.parent {
                        heading += " : \(parent)"
                        if entity.root != parent { heading += " (root \(entity.root))" }
                    }
                    if entity.abstract { heading += " (abstract)" }
                    if let renaming = entity.renamingIdentifier { heading += " [renaming ID '\(renaming)']" }
                    if !entity.subentities.isEmpty { heading += " <- \(entity.subentities.joined(separator: ", "))" }
                    lines.append(heading)
                    for attribute in entity.inheritedAttributes + entity.attributes {
                        lines.append("    " + Self.attributeLine(attribute))
                    }
                    for relationship in entity.inheritedRelationships + entity.relationships {
                        lines.append("    " + Self.relationshipLine(relationship))
                    }
                }
            } else {
                lines.append(version.legacyFormat ? "  (legacy binary format, cannot be decoded)" : "  (not readable)")
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
        // Names come from the model files: no control or bidi character reaches the terminal.
        return lines.map(TerminalText.safe).joined(separator: "\n") + "\n"
    }

    /// `inheritance: Dog : Animal, Puppy : Dog (root Animal); abstract: Animal`, at most 12 entries.
    static func inheritanceLine(_ entries: [InheritanceEntry]) -> String {
        let children = entries.filter { $0.parent != nil }
        let limit = 12
        var text = "inheritance: " + children.prefix(limit).map { entry in
            "\(entry.entity) : \(entry.parent ?? "")" + (entry.root != entry.parent ? " (root \(entry.root))" : "")
        }.joined(separator: ", ")
        if children.count > limit { text += ", and \(children.count - limit) more" }
        let abstract = entries.filter(\.abstract).map(\.entity)
        if !abstract.isEmpty {
            text += "; abstract: " + abstract.prefix(limit).joined(separator: ", ")
                + (abstract.count > limit ? ", and \(abstract.count - limit) more" : "")
        }
        return text
    }

    /// `title: String, optional, default 'x', min '1', max '200', …, inherited from Item`: the fields that are set.
    static func attributeLine(_ attribute: AttributeDetail) -> String {
        var line = "\(attribute.name): \(attribute.type)"
        if attribute.optional { line += ", optional" }
        if attribute.transient { line += ", transient" }
        if attribute.indexed { line += ", indexed" }
        if let value = attribute.defaultValue { line += ", default '\(value)'" }
        if let value = attribute.minimum { line += ", min '\(value)'" }
        if let value = attribute.maximum { line += ", max '\(value)'" }
        if let value = attribute.derivation { line += value.isEmpty ? ", derived" : ", derived '\(value)'" }
        if let value = attribute.valueTransformer { line += ", transformer '\(value)'" }
        if attribute.externalStorage { line += ", external storage" }
        if let value = attribute.customClass { line += ", class '\(value)'" }
        if let renaming = attribute.renamingIdentifier { line += ", renaming ID '\(renaming)'" }
        if let owner = attribute.inheritedFrom { line += ", inherited from \(owner)" }
        return line
    }

    static func relationshipLine(_ relationship: RelationshipDetail) -> String {
        var line = "\(relationship.name) -> \(relationship.destination ?? "?")"
        line += relationship.toMany ? (relationship.ordered ? ", to-many ordered" : ", to-many") : ", to-one"
        if relationship.optional { line += ", optional" }
        if let inverse = relationship.inverse { line += ", inverse '\(inverse)'" }
        line += ", \(relationship.deletionRule)"
        if let renaming = relationship.renamingIdentifier { line += ", renaming ID '\(renaming)'" }
        if let owner = relationship.inheritedFrom { line += ", inherited from \(owner)" }
        return line
    }

    private static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(value) \(value == 1 ? singular : plural)"
    }
}
