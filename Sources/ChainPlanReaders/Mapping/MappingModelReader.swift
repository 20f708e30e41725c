import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChainPlanCore

/// Reads one `.xcmappingmodel` (its `xcmapping.xml`) into a `MappingModel`.
package enum MappingModelReader {
    /// Reads the mapping model at `url`: the `.xcmappingmodel` folder or its `xcmapping.xml`.
    ///
    /// `displayPath` is how the user should see `url`. Problems are reported as CP120 at
    /// the document and line where known. A document that cannot be parsed gives no model;
    /// a snapshot that cannot be decoded gives a model whose `sourceModel` or
    /// `destinationModel` is nil (it can still be matched by its stated paths).
    package static func read(at url: URL, displayPath: String, maxBytes: Int = 64 << 20) -> (model: MappingModel?, diagnostics: [Diagnostic]) {
        let documentURL: URL
        let folderURL: URL
        let folderDisplay: String
        let documentDisplay: String
        if url.lastPathComponent == "xcmapping.xml" {
            documentURL = url
            folderURL = url.deletingLastPathComponent()
            documentDisplay = displayPath
            folderDisplay = displayPath.hasSuffix("/xcmapping.xml") ? String(displayPath.dropLast("/xcmapping.xml".count)) : folderURL.path
        } else {
            documentURL = url.appendingPathComponent("xcmapping.xml")
            folderURL = url
            folderDisplay = displayPath
            documentDisplay = displayPath + "/xcmapping.xml"
        }
        var name = folderURL.lastPathComponent
        if name.hasSuffix(".xcmappingmodel") { name = String(name.dropLast(".xcmappingmodel".count)) }

        switch MappingFileAccess.read(documentURL.path, maxBytes: maxBytes) {
        case .success(let data):
            return parse(data, name: name, folderDisplay: folderDisplay, documentDisplay: documentDisplay)
        case .failure(let problem):
            return (nil, [Diagnostic(.unreadableMappingModel, "mapping model '\(name)': \(problem.message)", at: SourceLocation(file: documentDisplay))])
        }
    }

    /// Parses the bytes of an `xcmapping.xml`: the document, its entity mappings and the
    /// embedded model snapshots. `name` is the mapping model's name (its folder without
    /// `.xcmappingmodel`); the display paths are where diagnostics point.
    package static func parse(_ data: Data, name: String, folderDisplay: String, documentDisplay: String) -> (model: MappingModel?, diagnostics: [Diagnostic]) {
        func failure(_ message: String, line: Int? = nil) -> (model: MappingModel?, diagnostics: [Diagnostic]) {
            (nil, [Diagnostic(.unreadableMappingModel, "mapping model '\(name)': \(message)", at: SourceLocation(file: documentDisplay, line: line))])
        }
        if let invalid = firstInvalidUTF8Line(data) {
            return failure("xcmapping.xml is not valid UTF-8", line: invalid)
        }
        let document: MappingXMLDocument
        switch MappingXMLDocument.parse(data) {
        case .success(let parsed): document = parsed
        case .failure(let problem): return failure(problem.message, line: problem.line)
        }
        let models = document.objects.filter { $0.type == "XDDEVMAPPINGMODEL" }
        guard let modelObject = models.first else {
            return failure("xcmapping.xml holds no XDDEVMAPPINGMODEL object")
        }
        var diagnostics: [Diagnostic] = []
        func report(_ message: String, line: Int?) {
            diagnostics.append(Diagnostic(.unreadableMappingModel, "mapping model '\(name)': \(message)", at: SourceLocation(file: documentDisplay, line: line)))
        }
        if models.count > 1 {
            report("xcmapping.xml holds \(models.count) XDDEVMAPPINGMODEL objects; only the first is used", line: models[1].line)
        }

        var model = MappingModel(
            name: name, path: folderDisplay, documentPath: documentDisplay,
            statedSourcePath: modelObject.attributes["sourcemodelpath"]?.text,
            statedDestinationPath: modelObject.attributes["destinationmodelpath"]?.text,
            line: modelObject.line,
            sourceDataLine: modelObject.attributes["sourcemodeldata"]?.line,
            destinationDataLine: modelObject.attributes["destinationmodeldata"]?.line)

        // The two snapshots are independent, and decoding one is most of reading the document:
        // both at once.
        let roles = [("source", "sourcemodeldata"), ("destination", "destinationmodeldata")]
        let decoded = Parallel.map(roles) { role, key -> Result<ModelSnapshotDecoder.Snapshot, MappingSnapshotProblem> in
            guard let field = modelObject.attributes[key] else {
                return .failure(MappingSnapshotProblem(message: "the \(role) model snapshot ('\(key)') is missing", line: modelObject.line))
            }
            guard let bytes = Data(base64Encoded: field.text, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
                return .failure(MappingSnapshotProblem(message: "the \(role) model snapshot is not valid base64", line: field.line))
            }
            do throws(ArchiveError) {
                return .success(try ModelSnapshotDecoder.decode(bytes))
            } catch {
                return .failure(MappingSnapshotProblem(message: "the \(role) model snapshot cannot be decoded: \(error.message)", line: field.line))
            }
        }
        for ((role, _), result) in zip(roles, decoded) {
            switch result {
            case .success(let snapshot) where role == "source":
                model.sourceModel = snapshot.model
                model.sourceUnrecordedFields = snapshot.unrecordedFields
            case .success(let snapshot):
                model.destinationModel = snapshot.model
                model.destinationUnrecordedFields = snapshot.unrecordedFields
            case .failure(let problem):
                report(problem.message, line: problem.line)
            }
        }

        let byID = Dictionary(document.objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func propertyMappings(_ references: [String]?, type: String) -> [PropertyMapping] {
            var seen: Set<String> = []
            var result: [PropertyMapping] = []
            for reference in references ?? [] where seen.insert(reference).inserted {
                guard let object = byID[reference], object.type == type else { continue }
                result.append(PropertyMapping(
                    name: object.attributes["name"]?.text,
                    hasValueExpression: object.attributes["valueexpressiondata"] != nil,
                    line: object.line))
            }
            return result.sorted { ($0.name ?? "\u{10FFFF}", $0.line ?? 0) < ($1.name ?? "\u{10FFFF}", $1.line ?? 0) }
        }
        var mappings: [EntityMapping] = []
        for object in document.objects where object.type == "XDDEVENTITYMAPPING" {
            mappings.append(EntityMapping(
                name: object.attributes["name"]?.text,
                sourceEntity: object.attributes["sourcename"]?.text,
                destinationEntity: object.attributes["destinationname"]?.text,
                mappingType: object.attributes["mappingtypename"]?.text ?? "Undefined",
                policyClassName: object.attributes["migrationpolicyclassname"]?.text.trimmingCharacters(in: .whitespacesAndNewlines),
                mappingNumber: object.attributes["mappingnumber"].flatMap { Int($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) },
                sourceFilterPredicate: object.attributes["sourcefilterpredicatestring"]?.text,
                attributeMappings: propertyMappings(object.relationships["attributemappings"], type: "XDDEVATTRIBUTEMAPPING"),
                relationshipMappings: propertyMappings(object.relationships["relationshipmappings"], type: "XDDEVRELATIONSHIPMAPPING"),
                line: object.line))
        }
        model.entityMappings = mappings.sorted { lhs, rhs in
            (lhs.mappingNumber ?? Int.max, lhs.sourceEntity ?? "", lhs.destinationEntity ?? "", lhs.line ?? 0)
                < (rhs.mappingNumber ?? Int.max, rhs.sourceEntity ?? "", rhs.destinationEntity ?? "", rhs.line ?? 0)
        }
        model.customPolicies = Set(mappings.compactMap(\.policyClassName).filter { !$0.isEmpty }).sorted()
        model.valueExpressionCount = document.objects.filter {
            ($0.type == "XDDEVATTRIBUTEMAPPING" || $0.type == "XDDEVRELATIONSHIPMAPPING") && $0.attributes["valueexpressiondata"] != nil
        }.count
        return (model, diagnostics)
    }

    /// 1-based line of the first byte that is not valid UTF-8, or nil when all is valid.
    static func firstInvalidUTF8Line(_ data: Data) -> Int? {
        if String(validating: data, as: UTF8.self) != nil { return nil }
        return TextPosition.firstInvalidUTF8(in: data).0
    }
}

/// Why a model snapshot of a mapping model could not be read, and the document line it is on.
struct MappingSnapshotProblem: Error {
    var message: String
    var line: Int?
}

/// `xcmapping.xml` read through `FileAccess` (bounded, never a FIFO or device), its problems
/// worded about the document.
enum MappingFileAccess {
    struct Problem: Error {
        var message: String
    }

    static func read(_ path: String, maxBytes: Int) -> Result<Data, Problem> {
        FileAccess.readRegularFile(at: URL(fileURLWithPath: path), maxBytes: maxBytes).mapError { problem in
            switch problem {
            case .notRegularFile(_, kind: "a directory"): Problem(message: "xcmapping.xml is a directory, not a file")
            default: Problem(message: "xcmapping.xml " + problem.reason)
            }
        }
    }
}
