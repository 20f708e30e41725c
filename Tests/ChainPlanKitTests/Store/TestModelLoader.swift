import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ChainPlanKit

/// TEST-ONLY reader of `.xcdatamodel/contents`, enough for the Store tests to build
/// `ObjectModel`s of the corpus versions (entities, attributes, relationships, uniqueness
/// constraints, fetch indexes and the version identifier). The product's real model
/// reader lives in Model/ and replaces this once merged; the identification API does not
/// depend on how models were loaded.
enum TestModelLoader {
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Every version of a `.xcdatamodeld`, sorted by name (order does not matter to the Store tests).
    static func bundle(at url: URL) throws -> [ModelVersion] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasSuffix(".xcdatamodel") }
            .sorted()
        guard !names.isEmpty else { throw LoadError(description: "no versions in \(url.path)") }
        return try names.map { folder in
            let contents = url.appendingPathComponent(folder).appendingPathComponent("contents")
            let name = String(folder.dropLast(".xcdatamodel".count))
            return ModelVersion(name: name, path: contents.path, model: try model(at: contents))
        }
    }

    static func model(at url: URL) throws -> ObjectModel {
        let data = try Data(contentsOf: url)
        if String(decoding: data, as: UTF8.self).contains("<!DOCTYPE") {
            throw LoadError(description: "DOCTYPE refused in \(url.path)")
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse() else {
            throw LoadError(description: "cannot parse \(url.path): \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        delegate.finishEntity()
        return ObjectModel(entities: delegate.entities, versionIdentifier: delegate.versionIdentifier)
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var entities: [Entity] = []
        var versionIdentifier: String?
        var current: Entity?
        var constraint: [String]?
        var fetchIndex: FetchIndex?

        func finishEntity() {
            if let current { entities.append(current) }
            current = nil
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let yes = { (key: String) in attributes[key] == "YES" }
            switch name {
            case "model":
                let identifier = attributes["userDefinedModelVersionIdentifier"] ?? ""
                versionIdentifier = identifier.isEmpty ? nil : identifier
            case "entity":
                finishEntity()
                current = Entity(name: attributes["name"] ?? "", parentEntity: attributes["parentEntity"],
                                 isAbstract: yes("isAbstract"), renamingIdentifier: attributes["elementID"])
            case "attribute":
                guard current != nil else { return }
                current?.attributes.append(Attribute(
                    name: attributes["name"] ?? "", type: AttributeType(xmlValue: attributes["attributeType"] ?? "Undefined"),
                    isOptional: yes("optional"), isTransient: yes("transient"), isIndexed: yes("indexed"),
                    defaultValueString: attributes["defaultValueString"]))
            case "relationship":
                guard current != nil else { return }
                current?.relationships.append(Relationship(
                    name: attributes["name"] ?? "", destinationEntity: attributes["destinationEntity"],
                    inverseName: attributes["inverseName"], inverseEntity: attributes["inverseEntity"],
                    isToMany: yes("toMany"), isOrdered: yes("ordered"), isOptional: yes("optional"),
                    isTransient: yes("transient"), minCount: Int(attributes["minCount"] ?? "") ?? 0,
                    maxCount: Int(attributes["maxCount"] ?? "") ?? 0))
            case "uniquenessConstraint":
                constraint = []
            case "constraint":
                if let value = attributes["value"] { constraint?.append(value) }
            case "fetchIndex":
                fetchIndex = FetchIndex(name: attributes["name"] ?? "", elements: [])
            case "fetchIndexElement":
                fetchIndex?.elements.append(FetchIndex.Element(
                    property: attributes["property"], expression: attributes["expression"], type: attributes["type"],
                    ascending: attributes["order"] != "descending"))
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "entity":
                finishEntity()
            case "uniquenessConstraint":
                if let constraint, !constraint.isEmpty { current?.uniquenessConstraints.append(constraint) }
                constraint = nil
            case "fetchIndex":
                if let fetchIndex { current?.fetchIndexes.append(fetchIndex) }
                fetchIndex = nil
            default:
                break
            }
        }
    }
}
