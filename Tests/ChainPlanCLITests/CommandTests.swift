import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// `explain`, `init`, `graph` and planning with models, run in-process.
struct CommandTests {
    static let root = CLITests.root
    static let chains = root.appendingPathComponent("Chains")
    static let scenarios = ["aircraft-staged", "corestore-tree", "events-two-passes", "grocery-dude", "notas", "swiftdata-trips"]
    /// Every spec in Chains/invalid, as `invalid/<file>`.
    static let invalid: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: chains.appendingPathComponent("invalid").path)) ?? [])
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { "invalid/\($0)" }
    /// The invalid specs a diagram can be drawn of (not CP100: those cannot be read).
    static let renderableInvalid = invalid.filter { !$0.contains("CP100") }
    /// Every spec in Chains/, as a path under it.
    static let examples = scenarios.map { "\($0)/chain.json" } + invalid

    /// The golden file name of an example: `grocery-dude`, `invalid-CP104-cycle`.
    static func goldenName(_ example: String) -> String {
        let stem = example.replacingOccurrences(of: "/chain.json", with: "")
        return (stem as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "-")
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs in-process; what it printed on standard output is the document.
    func run(_ arguments: [String]) async throws -> (Int32, String) {
        let run = await OutputCapture.run(arguments)
        return (run.status, run.output)
    }

    /// The examples' documents are golden: classification, changes, direct jumps and findings.
    @Test(arguments: scenarios)
    func exampleDocumentsAreGolden(_ scenario: String) async throws {
        let spec = Self.chains.appendingPathComponent("\(scenario)/chain.json")
        for (format, suffix) in [("json", "json"), ("text", "txt")] {
            let (_, text) = try await run(["paths", spec.path, "--format", format])
            let golden = "Golden/chains/\(scenario).paths.\(suffix)"
            #expect(try Golden.check(Data(text.utf8), against: golden), "\(golden) differs; see \(NSTemporaryDirectory())")
        }
    }

    /// `validate --format text`, `report --format json` and `graph --format json` of every example.
    @Test(arguments: examples)
    func exampleOutputsAreGolden(_ example: String) async throws {
        let spec = Self.chains.appendingPathComponent(example).path
        let name = Self.goldenName(example)
        var runs = [(["validate", spec, "--format", "text"], "validate.txt"), (["report", spec, "--format", "json"], "report.json")]
        if !example.contains("CP100") { runs.append((["graph", spec, "--format", "json"], "graph.json")) }
        for (arguments, suffix) in runs {
            let (_, text) = try await run(arguments)
            #expect(!text.isEmpty, "\(arguments)")
            let golden = "Golden/chains/\(name).\(suffix)"
            #expect(try Golden.check(Data(text.utf8), against: golden), "\(golden) differs; see \(NSTemporaryDirectory())")
        }
    }

    @Test(arguments: [("aircraft-staged", Int32(0)), ("corestore-tree", 0), ("events-two-passes", 1), ("grocery-dude", 0), ("notas", 0), ("swiftdata-trips", 1)])
    func exampleExitStatus(_ scenario: String, _ status: Int32) async throws {
        let (code, _) = try await run(["validate", Self.chains.appendingPathComponent("\(scenario)/chain.json").path])
        #expect(code == status)
    }

    @Test func strictFailsOnWarnings() async throws {
        let (code, _) = try await run(["validate", Self.chains.appendingPathComponent("grocery-dude/chain.json").path, "--strict"])
        #expect(code == 1)
    }

    @Test func bundleGivenDirectlyInfersTheOrder() async throws {
        let bundle = Self.chains.appendingPathComponent("grocery-dude/Model.xcdatamodeld")
        let (code, json) = try await run(["paths", bundle.path, "--format", "json"])
        #expect(code == 0)
        let report = try RuleCatalogue.jsonDecoder().decode(ChainReport.self, from: Data(json.utf8))
        #expect(report.versions == ["Model", "Model 2", "Model 3", "Model 4"])
        let inferred = try #require(report.diagnostics.first { $0.code == .inferredOrder })
        #expect(inferred.severity == .warning)
        // The order comes from the bundle as a whole: the finding points at the bundle, no line or column.
        #expect(inferred.location == SourceLocation(file: DisplayPath.make(bundle, relativeTo: DisplayPath.currentDirectory)))
        #expect(inferred.location?.file.hasSuffix("Chains/grocery-dude/Model.xcdatamodeld") == true)
        #expect(report.steps.map(\.migration) == [.lightweight, .lightweight, .lightweight])
    }

    /// CP105, CP107 and CP109 against a real bundle.
    @Test func modelChecksOnARealBundle() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.chains.appendingPathComponent("grocery-dude/Model.xcdatamodeld"),
                                         to: directory.appendingPathComponent("Model.xcdatamodeld"))
        let spec = directory.appendingPathComponent("chain.json")
        try Data("{\"chain\": [\"Model\", \"Modle 2\", \"Model 3\"],\n \"model\": \"Model.xcdatamodeld\"}".utf8).write(to: spec)
        let (code, json) = try await run(["validate", spec.path, "--format", "json"])
        #expect(code == 1)
        let report = try RuleCatalogue.jsonDecoder().decode(ChainReport.self, from: Data(json.utf8))
        let found = report.diagnostics.map { "\($0.code.rawValue) \($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.versions)" }
        #expect(found.contains("CP105 1:21 [\"Modle 2\"]"))
        #expect(report.diagnostics.first { $0.code == .unknownVersion }?.message.contains("did you mean 'Model 2'") == true)
        #expect(found.contains("CP107 1:11 [\"Model 2\"]"))
        #expect(found.contains("CP107 1:11 [\"Model 4\"]"))
        #expect(found.contains("CP109 1:11 [\"Model 3\", \"Model 4\"]"))
    }

    /// Every name tied at the best distance is suggested, in version order.
    @Test func unknownVersionSuggestsEveryNearestName() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.chains.appendingPathComponent("grocery-dude/Model.xcdatamodeld"),
                                         to: directory.appendingPathComponent("Model.xcdatamodeld"))
        let spec = directory.appendingPathComponent("chain.json")
        try Data(#"{"chain": ["Model", "Model 2", "Model 3", "Model 4", "Model 5"], "model": "Model.xcdatamodeld"}"#.utf8).write(to: spec)
        let (_, json) = try await run(["validate", spec.path, "--format", "json"])
        let report = try RuleCatalogue.jsonDecoder().decode(ChainReport.self, from: Data(json.utf8))
        let unknown = try #require(report.diagnostics.first { $0.code == .unknownVersion })
        #expect(unknown.message == "version 'Model 5' is not in the model bundle 'Model'; did you mean 'Model 2', 'Model 3' or 'Model 4'?")
    }

    /// A regular file named like a bundle is a bundle that is not a directory (CP111, exit 2), as with `inspect`.
    @Test(arguments: ["validate", "paths", "inspect"])
    func fileNamedLikeABundleIsAnUnreadableBundle(_ command: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Fake.xcdatamodeld")
        try Data("x".utf8).write(to: file)
        let (code, json) = try await run([command, file.path, "--format", "json"])
        #expect(code == 2)
        #expect(json.contains("CP111"))
        #expect(json.contains("is not a directory"))
        #expect(!json.contains("CP100"))
    }

    struct MappingsCase: CustomTestStringConvertible, Sendable {
        var name: String
        var spec: String
        var file = "chain.json"
        var withModel = false
        var folders: [String] = []
        var status: Int32
        /// `CODE line:column message-fragment`, in report order.
        var expected: [String]
        var testDescription: String { name }
    }

    static let mappingsCases: [MappingsCase] = [
        MappingsCase(name: "no model: missing paths and a key that is not a step",
                     spec: #"{"chain":["A","B"],"mappings":{"A -> B":"missing.xcmappingmodel","X -> Y":"also.xcmappingmodel"}}"#,
                     status: 1,
                     // History order: 'X' → 'Y' names no version of the chain, so it comes last.
                     expected: ["CP120 1:41 the mapping model 'missing.xcmappingmodel' does not exist",
                                "CP120 1:75 the mapping model 'also.xcmappingmodel' does not exist",
                                "CP121 1:66 'X' is not a version of the chain"]),
        MappingsCase(name: "no model: a file is not a mapping model folder",
                     spec: #"{"chain":["A","B"],"mappings":{"A -> B":"chain.json"}}"#, status: 1,
                     expected: ["CP120 1:41 the mapping model 'chain.json' is a file, not an .xcmappingmodel folder"]),
        // Fine as far as mappings go; without a bundle the steps are unclassified (CP119), so exit 1.
        MappingsCase(name: "no model: an existing folder on a chain step is fine",
                     spec: #"{"chain":["A","B"],"mappings":{"A -> B":"AB.xcmappingmodel"}}"#, folders: ["AB.xcmappingmodel"],
                     status: 1, expected: []),
        MappingsCase(name: "a repeated step in YAML, however written",
                     spec: "chain: [A, B]\nmappings:\n  A -> B: AB.xcmappingmodel\n  \"A→B\": AB.xcmappingmodel\n",
                     file: "chain.yaml", folders: ["AB.xcmappingmodel"], status: 2,
                     expected: ["CP100 4:3 mapping step 'A' → 'B' appears twice (first at line 3, column 3)"]),
        MappingsCase(name: "with a model: a key that is not a step is named at the key",
                     spec: "{\"chain\": [\"Model\", \"Model 2\", \"Model 3\", \"Model 4\"],\n \"model\": \"Model.xcdatamodeld\",\n \"mappings\": {\"Model 2 -> Model 9\": \"Map.xcmappingmodel\"}}",
                     withModel: true, folders: ["Map.xcmappingmodel"], status: 1,
                     expected: ["CP121 3:15 'Model 9' is not a version of the chain"]),
        MappingsCase(name: "with a model: a key skipping a version",
                     spec: "{\"chain\": [\"Model\", \"Model 2\", \"Model 3\", \"Model 4\"],\n \"model\": \"Model.xcdatamodeld\",\n \"mappings\": {\"Model 2 -> Model 4\": \"Map.xcmappingmodel\"}}",
                     withModel: true, folders: ["Map.xcmappingmodel"], status: 1,
                     expected: ["CP121 3:15 the chain goes 'Model 2' → 'Model 3'"]),
    ]

    /// `mappings` entries are checked with and without a model: paths that do not exist, keys that are no step, repeated keys.
    @Test(arguments: mappingsCases)
    func mappingsEntriesAreChecked(_ c: MappingsCase) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        if c.withModel {
            try FileManager.default.copyItem(at: Self.chains.appendingPathComponent("grocery-dude/Model.xcdatamodeld"),
                                             to: directory.appendingPathComponent("Model.xcdatamodeld"))
        }
        for folder in c.folders {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let spec = directory.appendingPathComponent(c.file)
        try Data(c.spec.utf8).write(to: spec)
        let (code, json) = try await run(["validate", spec.path, "--format", "json"])
        #expect(code == c.status)
        let report = try RuleCatalogue.jsonDecoder().decode(ChainReport.self, from: Data(json.utf8))
        let found = report.diagnostics.filter { [.unreadableSpec, .unreadableMappingModel, .unmatchedMappingModel, .staleMappingModel].contains($0.code) && $0.location?.file.hasSuffix(c.file) == true }
        #expect(found.count == c.expected.count, "\(found)")
        for (diagnostic, expected) in zip(found, c.expected) {
            let parts = expected.split(separator: " ", maxSplits: 2).map(String.init)
            #expect(diagnostic.code.rawValue == parts[0])
            #expect("\(diagnostic.location?.line ?? 0):\(diagnostic.location?.column ?? 0)" == parts[1])
            #expect(diagnostic.message.contains(parts[2]), "\(diagnostic.message)")
        }
        #expect(!report.diagnostics.contains { $0.code == .staleMappingModel })
    }

    @Test func modelOutsideTheSpecFolderNeedsAFlag() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json")
        let bundle = Self.chains.appendingPathComponent("grocery-dude/Model.xcdatamodeld").path
        try Data("{\"chain\": [\"Model\", \"Model 2\", \"Model 3\", \"Model 4\"], \"model\": \"\(bundle)\"}".utf8).write(to: spec)
        #expect(try await run(["validate", spec.path]).0 == 2)
        #expect(try await run(["validate", spec.path, "--allow-outside"]).0 == 0)
    }

    @Test func explainShowsEveryChangeWithItsBasis() async throws {
        let (code, json) = try await run(["explain", Self.chains.appendingPathComponent("notas/chain.json").path, "Notas", "Notas 3", "--format", "json"])
        #expect(code == 0)
        let report = try RuleCatalogue.jsonDecoder().decode(ExplainReport.self, from: Data(json.utf8))
        #expect(report.migration == .lightweight)
        #expect(report.changes.map(\.rule).contains("key-match"))
        #expect(report.changes.contains { $0.code == .propertyKindChange && $0.basis == .coreDataBuilder })
        #expect(report.entityMappings.map(\.name).contains("NotaToNota"))
        // No mapping model covers the pair: the key is there, null.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["mappingModel"] is NSNull)
        let events = try PassesCommandTests.eventsWithoutMappingModels()
        defer { try? FileManager.default.removeItem(at: events) }
        let (failing, _) = try await run(["explain", events.appendingPathComponent("chain.json").path, "Events", "Events 2"])
        #expect(failing == 1)
        let (unknown, _) = try await run(["explain", Self.chains.appendingPathComponent("notas/chain.json").path, "Notas", "Nope"])
        #expect(unknown == 2)
    }

    /// `explain` writes text and JSON only: other formats are a usage error, and its help lists only those two.
    @Test(arguments: ["sarif", "junit", "github", "svg"])
    func explainRefusesFormatsItDoesNotWrite(_ format: String) async throws {
        let (code, text) = try await run(["explain", Self.chains.appendingPathComponent("notas/chain.json").path, "Notas", "Notas 3", "--format", format])
        #expect(code == 2)
        #expect(text.isEmpty)
    }

    @Test func explainHelpListsItsFormats() {
        let help = ChainPlan.helpMessage(for: ExplainCommand.self)
        #expect(help.contains("text"))
        #expect(help.contains("json"))
        #expect(!help.contains("sarif"))
        #expect(!help.contains("junit"))
        #expect(!help.contains("github"))
    }

    /// The verdict's plural agrees with its count, and renames qualify both names with their entity.
    @Test func explainTextWording() async throws {
        let (code, text) = try await run(["explain", Self.chains.appendingPathComponent("notas/chain.json").path, "Notas", "Notas 3"])
        #expect(code == 0)
        #expect(text.contains("verdict: lightweight: Core Data infers the mapping (1 change drops data)\n"))
        #expect(text.contains("attribute 'Nota.fecha' is renamed to 'Nota.momento' (renaming identifier 'fecha')"))
    }

    @Test func initWritesAReviewableSpec() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.chains.appendingPathComponent("notas/Notas.xcdatamodeld"),
                                         to: directory.appendingPathComponent("Notas.xcdatamodeld"))
        let spec = directory.appendingPathComponent("chain.yaml")
        let bundle = directory.appendingPathComponent("Notas.xcdatamodeld").path
        #expect(await ChainPlan.run(arguments: ["init", bundle, "-o", spec.path]) == 0)
        let text = try String(contentsOf: spec, encoding: .utf8)
        #expect(text.contains("model: \"Notas.xcdatamodeld\""))
        #expect(text.contains("  - \"Notas 2\"\n  - \"Notas 3\""))
        #expect(await ChainPlan.run(arguments: ["init", bundle, "-o", spec.path]) == 2)
        let (code, _) = try await run(["validate", spec.path])
        #expect(code == 0)
    }

    /// DOT is golden for every example a diagram can be drawn of, invalid chains (cycles, dead
    /// ends, two leaves, self-loops, duplicates) included; the SVG parses as XML and labels every version.
    @Test(arguments: scenarios.map { "\($0)/chain.json" } + renderableInvalid)
    func graphDrawsEveryExample(_ example: String) async throws {
        let spec = Self.chains.appendingPathComponent(example).path
        let (code, dot) = try await run(["graph", spec, "--format", "dot", "--direct"])
        #expect(code == 0)
        let golden = "Golden/chains/\(Self.goldenName(example)).dot"
        #expect(try Golden.check(Data(dot.utf8), against: golden), "\(golden) differs; see \(NSTemporaryDirectory())")
        let (svgCode, svg) = try await run(["graph", spec])
        #expect(svgCode == 0)
        let content = try SVGNodeLabels(Data(svg.utf8))
        #expect(content.root == "svg")
        let report = ChainPlanner().plan(inputAt: URL(fileURLWithPath: spec))
        #expect(!report.versions.isEmpty)
        for version in report.versions { #expect(content.nodeTexts.contains(version), "\(version) not drawn: \(content.nodeTexts)") }
    }
}

/// A rendered SVG read with XMLParser: its root element and the text lines of its node groups.
struct SVGNodeLabels {
    var root: String?
    var nodeTexts: [String] = []

    struct NotWellFormed: Error { var reason: String }

    init(_ data: Data) throws {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse(), parser.parserError == nil else { throw NotWellFormed(reason: String(describing: parser.parserError)) }
        root = collector.root
        nodeTexts = collector.nodeTexts
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var root: String?
        var nodeTexts: [String] = []
        private var depthInNode = 0
        private var inText = false
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
            if depthInNode > 0 {
                depthInNode += 1
            } else if name == "g", attributes["class"] == "node" {
                depthInNode = 1
            }
            if depthInNode > 0, name == "text" {
                inText = true
                text = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if inText, name == "text" {
                nodeTexts.append(text)
                inText = false
            }
            if depthInNode > 0 { depthInNode -= 1 }
        }
    }
}
