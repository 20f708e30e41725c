import ChainPlanCore
import ChainPlanPlanning
import ChainPlanReaders
import Foundation

/// SARIF 2.1.0, the format code-scanning services (GitHub, Azure DevOps, GitLab) read.
///
/// One rule per chainplan code, in code order, with its summary and help; ruleIds are the codes
/// (`CP104`), stable across releases. Artifact URIs are relative to the checkout (`%SRCROOT%`) and
/// percent-encoded (model versions have spaces in their names). A region is given only when a
/// line is known, and a start column only when a column is known (columns count Unicode scalars).
package enum SARIFReporter {
    /// The log of `report`, describing `rules` and every code its findings have, in code order.
    package static func render(_ report: ChainReport, rules: [DiagnosticCode]) -> Data {
        JSONReporter.encode(log(for: report, rules: rules))
    }

    static func log(for report: ChainReport, rules described: [DiagnosticCode]) -> Log {
        let rules = Set(described + report.diagnostics.map(\.code)).sorted()
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        let results = report.diagnostics.map { diagnostic in
            Result(
                ruleId: diagnostic.code.rawValue,
                ruleIndex: index[diagnostic.code] ?? 0,
                level: level(diagnostic.severity),
                message: Message(text: MarkupText.inert(diagnostic.message)),
                locations: diagnostic.location.map { [Location($0)] } ?? [],
                properties: diagnostic.versions.isEmpty ? nil : ResultProperties(versions: diagnostic.versions),
                suppressions: diagnostic.accepted.map { [Suppression(kind: "inSource", justification: MarkupText.inert($0))] }
            )
        }
        let driver = Driver(
            name: "chainplan",
            semanticVersion: ChainPlanVersion.string,
            rules: rules.map { rule in
                ReportingDescriptor(
                    id: rule.rawValue,
                    name: rule.name,
                    shortDescription: Message(text: rule.summary),
                    fullDescription: Message(text: rule.help),
                    help: Message(text: rule.help),
                    defaultConfiguration: Configuration(level: level(rule.defaultSeverity))
                )
            }
        )
        return Log(runs: [Run(tool: Tool(driver: driver), results: results)])
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// A relative path as a URI reference: each segment percent-encoded, `/` kept.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";?#[]%")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
            .joined(separator: "/")
    }

    // MARK: The document (only the parts chainplan fills in)

    struct Log: Encodable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema", version, runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var columnKind = "unicodeCodePoints"
        var originalUriBaseIds = ["%SRCROOT%": BaseDescription()]
    }

    struct BaseDescription: Encodable {
        var description = Message(text: "The directory chainplan was run in (the checkout's root in CI).")
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name: String
        var semanticVersion: String
        var rules: [ReportingDescriptor]
    }

    struct ReportingDescriptor: Encodable {
        var id: String
        var name: String
        var shortDescription: Message
        var fullDescription: Message
        var help: Message
        var defaultConfiguration: Configuration
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct Message: Encodable {
        var text: String
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var properties: ResultProperties?
        /// An accepted finding (the spec's `accept`): suppressed in source, with the reason.
        var suppressions: [Suppression]?
    }

    struct Suppression: Encodable {
        var kind: String
        var justification: String
    }

    struct ResultProperties: Encodable {
        /// The versions the finding concerns.
        var versions: [String]
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation

        init(_ location: SourceLocation) {
            physicalLocation = PhysicalLocation(
                artifactLocation: location.file.hasPrefix("/")
                    ? ArtifactLocation(uri: "file://" + SARIFReporter.uri(location.file), uriBaseId: nil)
                    : ArtifactLocation(uri: SARIFReporter.uri(location.file)),
                region: location.line.map { Region(startLine: $0, startColumn: location.column) }
            )
        }
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        /// Relative URIs resolve against the checkout; absolute ones (outside it) stand alone.
        var uriBaseId: String? = "%SRCROOT%"
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int?
    }
}
