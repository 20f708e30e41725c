import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanPlanning
@testable import ChainPlanOutput

/// Issue 19, the rest of part 2 to 4: history order, one finding per cause, `accept`, bare
/// CoreStore arrays, the JSON envelope, the plugin and `make install`, Markdown that fits a
/// GitHub comment, and what `-o` writes.
struct AdoptionReportingTests {
    static let root = CLITests.root

    /// A project folder in a temporary directory, from `files` (path → text).
    static func project(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-h4-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    static func contents(_ entities: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + entities + "</model>"
    }

    static func bundle(_ versions: [(String, String)], current: String, name: String = "Model") -> [String: String] {
        var files: [String: String] = [:]
        for (version, entities) in versions { files["\(name).xcdatamodeld/\(version).xcdatamodel/contents"] = contents(entities) }
        files["\(name).xcdatamodeld/.xccurrentversion"] = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>"#
            + current + ".xcdatamodel</string></dict></plist>"
        return files
    }

    static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let noteWithBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: 1. History order

    struct OrderCase: Sendable, CustomStringConvertible {
        var description: String
        var findings: [Diagnostic]
        var expected: [String] // messages in order
    }

    static let orderCases: [OrderCase] = [
        OrderCase(description: "history before file order; spec-wide first; errors first within a step", findings: [
            Diagnostic(.dataRemoved, "note B→C", at: SourceLocation(file: "a/B.xcdatamodel/contents", line: 1), versions: ["B", "C"]),
            Diagnostic(.renameWithoutIdentifier, "warning A→B", at: SourceLocation(file: "z/B.xcdatamodel/contents", line: 9), versions: ["A", "B"]),
            Diagnostic(.notInferable, "error A→B", at: SourceLocation(file: "z/B.xcdatamodel/contents", line: 20), versions: ["A", "B"]),
            Diagnostic(.unreadableSpec, "spec", at: SourceLocation(file: "chain.json", line: 1)),
        ], expected: ["spec", "error A→B", "warning A→B", "note B→C"]),
        OrderCase(description: "a version not in the chain sorts last", findings: [
            Diagnostic(.unknownVersion, "typo", versions: ["Zed"]),
            Diagnostic(.dataRemoved, "C", versions: ["C", "D"]),
        ], expected: ["C", "typo"]),
    ]

    @Test(arguments: orderCases)
    func historyOrder(_ item: OrderCase) {
        #expect(HistoryOrder.sorted(item.findings, versions: ["A", "B", "C", "D"]).map(\.message) == item.expected)
    }

    /// Every format lists findings in the report's (history) order, and text leads the summary with errors.
    @Test func everyFormatUsesHistoryOrderAndTextLeadsWithErrors() async throws {
        let spec = Self.root.appendingPathComponent("Chains/events-two-passes/chain.json").path
        let run = await OutputCapture.run(["validate", spec, "--format", "json"])
        let document = try Self.json(run.output)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let versions = try #require(document["versions"] as? [String])
        let places = diagnostics.map { entry -> Int in
            let names = entry["versions"] as? [String] ?? []
            return names.isEmpty ? -1 : names.compactMap { versions.firstIndex(of: $0) }.min() ?? versions.count
        }
        #expect(places == places.sorted())
        let text = await OutputCapture.run(["validate", spec, "--no-color"])
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.count >= 2)
        if document["summary"].flatMap({ ($0 as? [String: Any])?["errors"] as? Int }) ?? 0 > 0, diagnostics.count > 1 {
            #expect(lines.dropLast().last?.hasPrefix("errors: ") == true, "\(lines.suffix(2))")
        }
        let sarif = await OutputCapture.run(["validate", spec, "--format", "sarif"])
        let results = try #require((try Self.json(sarif.output)["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.compactMap { ($0["message"] as? [String: Any])?["text"] as? String } == diagnostics.compactMap { $0["message"] as? String })
    }

    // MARK: 2. One cause, one finding

    @Test func anInheritedRemovalIsReportedOnceAtTheDeclaringEntity() async throws {
        let parent = #"<entity name="Message" isAbstract="YES"><attribute name="isEncrypted" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        let parentAfter = #"<entity name="Message" isAbstract="YES"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        let children = #"<entity name="TextMessage" parentEntity="Message"/><entity name="ImageMessage" parentEntity="Message"/><entity name="KnockMessage" parentEntity="Message"/><entity name="SystemMessage" parentEntity="Message"/>"#
        var files = Self.bundle([("V1", parent + children), ("V2", parentAfter + children)], current: "V2")
        files["chain.json"] = #"{"chain": ["V1", "V2"], "model": "Model.xcdatamodeld"}"#
        let folder = try Self.project(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["validate", folder.appendingPathComponent("chain.json").path, "--format", "json"])
        let document = try Self.json(run.output)
        let removals = try #require(document["diagnostics"] as? [[String: Any]]).filter { $0["code"] as? String == "CP209" }
        #expect(removals.count == 1)
        let message = try #require(removals.first?["message"] as? String)
        #expect(message.contains("'Message.isEncrypted'"), "\(message)")
        #expect(message.contains("inherited by 4 subentities: 'ImageMessage', 'KnockMessage', 'SystemMessage' and 1 more"), "\(message)")
        // The step's changes still list every entity.
        let step = try #require((document["steps"] as? [[String: Any]])?.first)
        let changes = try #require(step["changes"] as? [[String: Any]])
        #expect(changes.filter { $0["property"] as? String == "isEncrypted" }.count == 5)
    }

    // MARK: 3. accept

    /// A shipped step's finding accepted with a reason: reported as accepted in every format, not counted, exit 0.
    @Test func acceptedFindingsAreShownAndDoNotFail() async throws {
        var files = Self.bundle([("V1", Self.note), ("V2", Self.noteWithBody), ("V3", Self.note), ("V4", Self.note)], current: "V4")
        files["chain.yaml"] = "chain: [V1, V2, V3, V4]\nmodel: Model.xcdatamodeld\n"
        let folder = try Self.project(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("chain.yaml").path
        #expect(await OutputCapture.run(["lock", spec]).status == 0)
        try Data("chain: [V1, V2, V3, V4]\nmodel: Model.xcdatamodeld\naccept:\n  \"V2 -> V3\": body was never shown\n".utf8)
            .write(to: URL(fileURLWithPath: spec))
        let text = await OutputCapture.run(["validate", spec, "--no-color"])
        #expect(text.status == 0, "\(text.output)")
        #expect(text.output.contains("[CP209] (accepted: body was never shown)"), "\(text.output)")
        #expect(text.output.contains("1 accepted"), "\(text.output)")
        let document = try Self.json(await OutputCapture.run(["validate", spec, "--format", "json"]).output)
        let accepted = try #require(document["diagnostics"] as? [[String: Any]]).filter { $0["accepted"] != nil }
        #expect(accepted.count == 1)
        #expect((document["summary"] as? [String: Any])?["accepted"] as? Int == 1)
        let sarif = await OutputCapture.run(["validate", spec, "--format", "sarif"]).output
        #expect(sarif.contains("\"justification\" : \"body was never shown\""))
        let github = await OutputCapture.run(["validate", spec, "--format", "github"]).output
        #expect(github.contains("(accepted note: body was never shown)"), "\(github)")
    }

    struct AcceptCase: Sendable, CustomStringConvertible {
        var description: String
        var accept: String
        var code: String
        var location: String?
    }

    static let acceptCases: [AcceptCase] = [
        AcceptCase(description: "a step the lock does not protect", accept: "  \"V3 -> V4\": later\n", code: "CP404", location: nil),
        AcceptCase(description: "a step without findings", accept: "  \"V1 -> V2\": nothing to accept\n", code: "CP404", location: nil),
        AcceptCase(description: "no reason", accept: "  \"V2 -> V3\":\n    codes: [CP209]\n", code: "CP100", location: "chain.yaml:5:5"),
        AcceptCase(description: "an unknown code", accept: "  \"V2 -> V3\":\n    reason: r\n    codes: [CP999]\n", code: "CP100", location: "chain.yaml:6:13"),
        AcceptCase(description: "not a step", accept: "  \"V2\": r\n", code: "CP100", location: "chain.yaml:4:3"),
    ]

    @Test(arguments: acceptCases)
    func anAcceptanceThatCannotApplyIsAFinding(_ item: AcceptCase) async throws {
        var files = Self.bundle([("V1", Self.note), ("V2", Self.noteWithBody), ("V3", Self.note), ("V4", Self.note)], current: "V4")
        files["chain.yaml"] = "chain: [V1, V2, V3, V4]\nmodel: Model.xcdatamodeld\n"
        let folder = try Self.project(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("chain.yaml")
        #expect(await OutputCapture.run(["lock", spec.path, "--versions", "V1,V2,V3"]).status == 0)
        try Data(("chain: [V1, V2, V3, V4]\nmodel: Model.xcdatamodeld\naccept:\n" + item.accept).utf8).write(to: spec)
        let document = try Self.json(await OutputCapture.run(["validate", spec.path, "--format", "json"]).output)
        let found = try #require(document["diagnostics"] as? [[String: Any]]).filter { $0["code"] as? String == item.code }
        #expect(found.count == 1, "\(found)")
        if let location = item.location, let finding = found.first {
            let file = URL(fileURLWithPath: finding["file"] as? String ?? "").lastPathComponent
            #expect("\(file):\(finding["line"] as? Int ?? 0):\(finding["column"] as? Int ?? 0)" == location)
        }
        #expect(try #require(document["diagnostics"] as? [[String: Any]]).allSatisfy { $0["accepted"] == nil })
    }

    // MARK: 4. Bare CoreStore arrays

    @Test func aBareArrayIsClassifiedWithTheBundleThatHoldsItsVersions() async throws {
        var files = Self.bundle([("V1", Self.noteWithBody), ("V2", Self.note)], current: "V2", name: "Sources/Model")
        files["chain.json"] = #"["V1", "V2"]"#
        let folder = try Self.project(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try Self.json(await OutputCapture.run(["validate", folder.appendingPathComponent("chain.json").path, "--format", "json"]).output)
        #expect((document["model"] as? [String: Any])?["bundle"] as? String != nil)
        #expect((document["steps"] as? [[String: Any]])?.first?["migration"] as? String == "lightweight")
        #expect(try #require(document["diagnostics"] as? [[String: Any]]).contains { $0["code"] as? String == "CP209" })
    }

    struct BareCase: Sendable, CustomStringConvertible {
        var description: String
        var bundles: [String]
        var says: String
    }

    static let bareCases: [BareCase] = [
        BareCase(description: "no bundle", bundles: [], says: "no .xcdatamodeld is under the spec's folder"),
        BareCase(description: "a bundle without the versions", bundles: ["Other"], says: "holds all 2 versions (seen: 'Other.xcdatamodeld')"),
        BareCase(description: "two bundles with the versions", bundles: ["A", "B"], says: "2 bundles hold every version ('A.xcdatamodeld', 'B.xcdatamodeld')"),
    ]

    @Test(arguments: bareCases)
    func aBareArrayWithoutItsBundleNeverPasses(_ item: BareCase) async throws {
        var files: [String: String] = ["chain.json": #"["V1", "V2"]"#]
        for name in item.bundles {
            let versions = name == "Other" ? [("X1", Self.note)] : [("V1", Self.note), ("V2", Self.noteWithBody)]
            files.merge(Self.bundle(versions, current: versions[versions.count - 1].0, name: name)) { $1 }
        }
        let folder = try Self.project(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["validate", folder.appendingPathComponent("chain.json").path, "--no-color"])
        #expect(run.status == 1)
        #expect(run.output.contains("no step was classified"), "\(run.output)")
        #expect(run.output.contains(item.says), "\(run.output)")
        #expect(run.output.contains("[CP119]"))
        #expect(!run.output.contains("— pass"))
    }

    // MARK: 5. The JSON envelope

    static let envelopeCommands: [[String]] = [
        ["validate", "Chains/notas/chain.json", "--format", "json"],
        ["paths", "Chains/notas/chain.json", "--format", "json"],
        ["explain", "Chains/notas/chain.json", "Notas", "Notas 2", "--format", "json"],
        ["stage", "Chains/notas/chain.json", "--format", "json"],
        ["graph", "Chains/notas/chain.json", "--format", "json"],
        ["hash", "Chains/notas/Notas.xcdatamodeld", "--format", "json"],
        ["inspect", "Chains/notas/Notas.xcdatamodeld", "--format", "json"],
        ["textconv", "Chains/notas/Notas.xcdatamodeld/Notas.xcdatamodel/contents", "--format", "json"],
        ["inspect", "Chains/notas/Notas.xcdatamodeld", "Chains/grocery-dude/Model.xcdatamodeld", "--format", "json"],
        ["rules", "--format", "json"],
        ["rules", "CP209", "--format", "json"],
        ["report", "Chains/notas/chain.json", "--format", "json"],
        ["passes", "Chains/events-two-passes/chain.json", "Events", "Events 2", "--format", "json"],
        ["history", "Chains/notas/Notas.xcdatamodeld", "--format", "json"],
    ]

    @Test(arguments: envelopeCommands)
    func everyJSONDocumentSharesTheEnvelope(_ arguments: [String]) async throws {
        let resolved = arguments.map { $0.hasPrefix("Chains/") ? Self.root.appendingPathComponent($0).path : $0 }
        let run = await OutputCapture.run(resolved)
        let document = try Self.json(run.output)
        #expect(document["schemaVersion"] as? Int == 1, "\(arguments)")
        let tool = document["tool"] as? [String: Any]
        #expect(tool?["name"] as? String == "chainplan", "\(arguments)")
        #expect(tool?["version"] as? String == ChainPlanVersion.string, "\(arguments)")
    }

    // MARK: 6. Plugin, make install, Homebrew

    @Test func thePackageDeclaresThePluginAndTheHomebrewProvider() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".brew(["graphviz"])"#))
        #expect(manifest.contains(#"verb: "chainplan-validate""#))
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Plugins/ChainPlanValidate/plugin.swift").path))
    }

    @Test func makeInstallHonoursPrefixAndDestdir() throws {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-n", "-C", Self.root.path, "install", "PREFIX=/opt/cp", "DESTDIR=/tmp/stage"]
        let pipe = Pipe()
        make.standardOutput = pipe
        make.standardError = Pipe()
        try make.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        #expect(make.terminationStatus == 0)
        #expect(output.contains(#""/tmp/stage/opt/cp/bin/chainplan""#), "\(output)")
        #expect(output.contains("build -c release"), "\(output)")
    }

    // MARK: 7. Markdown fits a GitHub comment

    /// A synthetic long history: every step drops an attribute, so the full review is long.
    @Test func aLongMarkdownReportIsAbridgedAndSaysSo() throws {
        let versions = (1...400).map { "Version \($0)" }
        let steps = zip(versions, versions.dropFirst()).map { ChainReport.Step(from: $0, to: $1) }
        let diagnostics = steps.map { step in
            Diagnostic(.dataRemoved, "attribute 'Entity.property' is removed; its values are deleted ('\(step.from)' → '\(step.to)')",
                       at: SourceLocation(file: "Model.xcdatamodeld/\(step.from).xcdatamodel/contents", line: 12, column: 9),
                       versions: [step.from, step.to])
        } + [Diagnostic(.notInferable, "the last step fails", versions: ["Version 399", "Version 400"])]
        let report = ChainReport(spec: "chain.json", model: nil, target: "Version 400", versions: versions, steps: steps, paths: [],
                                 pathsAbbreviated: nil, diagnostics: diagnostics, summary: ChainReport.Summary(diagnostics: diagnostics))
        for limit in [MarkdownBudget.gitHubCommentLimit, 20_000] {
            let text = String(decoding: ReviewReporter.markdown(report, diagramLink: "review.svg", limit: limit), as: UTF8.self)
            #expect(text.unicodeScalars.count <= limit)
            #expect(text.contains("Abridged to fit a GitHub comment"))
            #expect(text.contains("more findings not listed"))
            // Errors are listed first when findings are cut.
            #expect(text.contains("| error | CP201 |"))
        }
        let small = ChainReport(spec: "chain.json", model: nil, target: nil, versions: [], steps: [], paths: [], pathsAbbreviated: nil,
                                diagnostics: [], summary: ChainReport.Summary(diagnostics: []))
        #expect(!String(decoding: ReviewReporter.markdown(small, diagramLink: nil), as: UTF8.self).contains("Abridged"))
    }

    // MARK: 8. -o

    @Test func graphRefusesAnExtensionThatNamesNoFormat() async throws {
        let folder = try Self.project([:])
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpg = folder.appendingPathComponent("chain.jpg")
        let run = await OutputCapture.run(["graph", Self.root.appendingPathComponent("Chains/notas/chain.json").path, "-o", jpg.path])
        #expect(run.status == 2)
        #expect(run.error.contains("cannot tell the format of"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: jpg.path))
        let svg = folder.appendingPathComponent("chain.svg")
        let written = await OutputCapture.run(["graph", Self.root.appendingPathComponent("Chains/notas/chain.json").path, "-o", svg.path])
        #expect(written.status == 0)
        #expect(written.error.contains("chainplan: wrote '\(svg.path)' ("), "\(written.error)")
    }

    @Test func everyOutputFileIsSaidAndAForeignDiagramIsLeftAlone() async throws {
        let folder = try Self.project(["review.svg": "my own drawing"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = Self.root.appendingPathComponent("Chains/notas/chain.json").path
        let review = folder.appendingPathComponent("review.md")
        let first = await OutputCapture.run(["report", spec, "-o", review.path])
        #expect(try String(contentsOf: folder.appendingPathComponent("review.svg"), encoding: .utf8) == "my own drawing")
        #expect(first.error.contains("is left alone"), "\(first.error)")
        #expect(first.error.contains("wrote '\(review.path)'"), "\(first.error)")
        #expect(!(try String(contentsOf: review, encoding: .utf8)).contains("](review.svg)"))
        // Without the foreign file, the diagram is written and said; a second run may replace its own diagram.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("review.svg"))
        let second = await OutputCapture.run(["report", spec, "-o", review.path])
        #expect(second.error.contains("wrote '\(folder.appendingPathComponent("review.svg").path)'"), "\(second.error)")
        let third = await OutputCapture.run(["report", spec, "-o", review.path])
        #expect(third.error.contains("wrote '\(folder.appendingPathComponent("review.svg").path)'"), "\(third.error)")
        for (arguments, file) in [(["validate", spec, "--format", "json"], "v.json"), (["explain", spec, "Notas", "Notas 2"], "e.txt"),
                                  (["stage", spec], "s.txt"), (["inspect", Self.root.appendingPathComponent("Chains/notas/Notas.xcdatamodeld").path], "i.txt")] {
            let path = folder.appendingPathComponent(file).path
            let run = await OutputCapture.run(arguments + ["-o", path])
            #expect(run.error.contains("chainplan: wrote '\(path)' ("), "\(arguments): \(run.error)")
        }
    }
}

extension CorpusTests {
    /// The Markdown reports of the two longest corpus histories fit a GitHub comment, and say what
    /// they leave out.
    @Suite struct CorpusMarkdownTests {
        static let bundles = [
            "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld",
            "wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld",
        ]

        @Test(arguments: bundles)
        func theMarkdownReportFitsAGitHubComment(_ relative: String) async throws {
            let bundle = SharedCorpus.corpus.appendingPathComponent(relative).path
            let run = await OutputCapture.run(["report", bundle, "--format", "md"])
            #expect(run.status != 2)
            #expect(run.output.unicodeScalars.count <= MarkdownBudget.gitHubCommentLimit, "\(run.output.unicodeScalars.count)")
            #expect(run.output.contains("## Findings"))
            #expect(run.output.contains("Abridged to fit a GitHub comment"))
        }

        /// Wire once repeated the removal of `Message.isEncrypted` for each of its seven subentities.
        @Test func wireReportsAnInheritedRemovalOnce() async throws {
            let bundle = SharedCorpus.corpus.appendingPathComponent(Self.bundles[1]).path
            let run = await OutputCapture.run(["validate", bundle, "--format", "json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let messages = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            let encrypted = messages.filter { $0.contains(".isEncrypted' is removed") }
            #expect(encrypted.count == 1, "\(encrypted)")
            #expect(encrypted.first?.contains("'Message.isEncrypted'") == true, "\(encrypted)")
            #expect(encrypted.first?.contains("inherited by 6 subentities") == true, "\(encrypted)")
        }
    }
}
