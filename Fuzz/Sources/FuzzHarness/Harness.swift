import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput
import CFuzzer

/// One function per fuzz target. Each feeds the bytes to a reader exactly as chainplan
/// does with a file from a pull request, then checks what must hold for every input, not
/// only that nothing crashed: locations are 1-based, a refused input says why, a plan's
/// paths are walks of its steps, a model compared with itself shows no change, escaped
/// text stays inert and means what it said. A broken promise traps, which libFuzzer
/// records as a crash with the input that caused it.
public enum Harness {
    /// The target a fuzzer binary runs; set once by `run` before fuzzing starts.
    nonisolated(unsafe) private static var target: (Data) -> Void = { _ in }

    /// Runs libFuzzer's driver with the command line's options (`-max_total_time=60`,
    /// corpus folders, or files to replay), calling `body` once per input. Never returns.
    public static func run(_ body: @escaping (Data) -> Void) -> Never {
        target = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { start, count in
            // The fuzzer's buffer is copied: libFuzzer reuses it.
            Harness.target(start.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
    }

    // MARK: - Chain specs

    /// The spec reader (JSON and YAML), then the whole planning pipeline and every report format.
    /// A text both readers read to the same spec (most valid JSON) is planned and rendered once:
    /// nothing after the reader looks at `syntax`, so the second plan and reports would be the
    /// same values from the same code.
    public static func spec(_ data: Data) {
        var planned: ChainSpec?
        for syntax in [SpecSyntax.json, .yaml] {
            let result = SpecReader().read(data: data, displayPath: "fuzz", syntax: syntax)
            checkLocations(result.diagnostics, "spec reader")
            guard var spec = result.spec else {
                expect(!result.diagnostics.isEmpty, "a spec that could not be read has no diagnostic")
                continue
            }
            spec.syntax = .json
            if spec == planned { continue }
            planned = spec
            spec.syntax = syntax
            let report = ChainPlanner().plan(spec: spec, bundle: nil, isInferred: false)
            checkLocations(report.diagnostics, "planner")
            checkPaths(report)
            for format in [OutputFormat.json, .sarif] {
                let bytes = Reporters.render(report, as: format)
                expect((try? JSONSerialization.jsonObject(with: bytes)) != nil, "the \(format) report does not parse")
            }
            let junit = XMLParser(data: Reporters.render(report, as: .junit))
            junit.shouldResolveExternalEntities = false
            expect(junit.parse(), "the JUnit report does not parse")
            _ = Reporters.render(report, as: .text)
            _ = Reporters.render(report, as: .github)
        }
    }

    /// Every listed path starts at its start, follows the plan's steps, and ends at its target.
    static func checkPaths(_ report: ChainReport) {
        let steps = Set(report.steps.map { "\($0.from)\u{0}\($0.to)" })
        for path in report.paths {
            guard path.reachable, let listed = path.steps else { continue }
            var at = path.start
            for step in listed {
                expect(step.from == at, "path from '\(path.start)' jumps from '\(at)' to a step from '\(step.from)'")
                expect(steps.contains("\(step.from)\u{0}\(step.to)"), "path from '\(path.start)' uses a step the plan does not have")
                at = step.to
            }
            expect(at == path.target, "path from '\(path.start)' ends at '\(at)', not at its target")
        }
    }

    // MARK: - Model contents

    /// A baseline model the fuzzed one is compared with in both directions.
    static let baseline: ObjectModel? = ModelContentsParser().parse(Data("""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" minimumToolsVersion="Automatic">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="created" attributeType="Date" usesScalarValueType="NO"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            </entity>
            <entity name="Folder" syncable="YES">
                <attribute name="name" attributeType="String" defaultValueString="Inbox"/>
                <relationship name="notes" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
            </entity>
        </model>
        """.utf8), file: "baseline").model

    /// The `contents` reader, the model checks and inheritance (the `model` target).
    public static func modelContents(_ data: Data) {
        guard let (model, _) = readModel(data) else { return }
        _ = ResolvedModel(model)
    }

    /// A model read as `modelContents` reads it, with its model-check findings; nil when the
    /// reader refused it (with a diagnostic).
    static func readModel(_ data: Data) -> (ObjectModel, [Diagnostic])? {
        let parsed = ModelContentsParser().parse(data, file: "contents", version: "Fuzz")
        checkLocations(parsed.diagnostics, "contents reader")
        guard let model = parsed.model else {
            expect(!parsed.diagnostics.isEmpty, "a model that could not be read has no diagnostic")
            return nil
        }
        let problems = ModelValidator.validate(model, file: "contents", version: "Fuzz")
        checkLocations(problems, "model checks")
        return (model, problems)
    }

    /// Inference (the `inference` target). The input is one `contents` document, or two
    /// separated by a NUL byte (a version and its successor; XML cannot contain NUL): each
    /// model is compared with itself, and the two with each other in both directions (one
    /// model: with a baseline in both directions).
    public static func inference(_ data: Data) {
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let models = parts.compactMap { readModel(Data($0)) }
        for (model, problems) in models {
            let itself = MappingInference.infer(from: model, to: model)
            // A valid model needs no migration to itself: any change found is a false finding.
            if !problems.contains(where: { $0.severity == .error }) {
                expect(!itself.needsMigration, "a model differs from itself: \(itself.changes.map(\.detail))")
            }
        }
        let other = parts.count == 2 ? models.dropFirst().first?.0 : baseline
        if let model = models.first?.0, let other {
            _ = MappingInference.infer(from: other, to: model)
            _ = MappingInference.infer(from: model, to: other)
        }
    }

    // MARK: - Mapping models

    /// The `xcmapping.xml` reader, snapshots included.
    public static func mappingModel(_ data: Data) {
        let result = MappingModelReader.parse(data, name: "Fuzz", folderDisplay: "Fuzz.xcmappingmodel",
                                              documentDisplay: "Fuzz.xcmappingmodel/xcmapping.xml")
        checkLocations(result.diagnostics, "mapping reader")
        if result.model == nil {
            expect(!result.diagnostics.isEmpty, "a mapping model that could not be read has no diagnostic")
        }
        for snapshot in [result.model?.sourceModel, result.model?.destinationModel].compactMap({ $0 }) {
            _ = ResolvedModel(snapshot)
        }
    }

    /// The keyed-archive decoder behind the model snapshots, on raw archive bytes.
    public static func keyedArchive(_ data: Data) {
        guard let snapshot = try? ModelSnapshotDecoder.decode(data) else { return }
        _ = ResolvedModel(snapshot.model)
        _ = MappingInference.infer(from: snapshot.model, to: snapshot.model)
    }

    // MARK: - Store metadata

    /// The store's `Z_PLIST` reader and the compiled model's `VersionInfo.plist` reader.
    public static func storeMetadata(_ data: Data) {
        if let plist = MetadataPlist.decode(data) {
            expect(plist.problems == plist.problems.sorted(), "metadata problems are not sorted")
        }
        _ = try? CompiledModelInfo.decode(data, displayPath: "VersionInfo.plist")
    }

    // MARK: - Escaping

    /// DOT labels, XML (HTML, JUnit, SVG), Markdown and GitHub workflow commands, on one name.
    public static func escaping(_ data: Data) {
        let name = String(decoding: data, as: UTF8.self)
        checkDOTLabel(name)
        checkXML(name)
        checkMarkdown(name)
        checkGitHub(name)
        if data.count <= 512 { checkRenderedSVG(name) }
    }

    /// A DOT label is one quoted string: quotes inside are escaped, no raw line break, no NUL.
    static func checkDOTLabel(_ name: String) {
        let label = Array(DOTWriter.label(name).unicodeScalars)
        expect(label.count >= 2 && label.first == "\"" && label.last == "\"", "a DOT label is not quoted")
        var index = 1
        while index < label.count - 1 {
            switch label[index] {
            case "\\": index += 2; continue
            case "\"": fail("a DOT label has an unescaped quote: \(name.debugDescription)")
            case "\n", "\r", "\0": fail("a DOT label has a raw control character: \(name.debugDescription)")
            default: break
            }
            index += 1
        }
        expect(index == label.count - 1, "a DOT label's closing quote is escaped: \(name.debugDescription)")
    }

    /// XML-escaped text parses, in an attribute and in content, and its content reads back as
    /// the name (with the characters XML cannot carry replaced as documented).
    static func checkXML(_ name: String) {
        let escaped = MarkupText.xml(name)
        let document = "<doc name=\"\(escaped)\">\(escaped)</doc>"
        let reader = TextCollector()
        let parser = XMLParser(data: Data(document.utf8))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        expect(parser.parse(), "XML-escaped text does not parse: \(name.debugDescription)")
        var expected = ""
        for scalar in name.unicodeScalars {
            if MarkupText.isBidiControl(scalar) { expected += MarkupText.visible(scalar); continue }
            switch scalar.value {
            case 0x09, 0x0A: expected.unicodeScalars.append(scalar)
            case 0x0D: expected += "\r"
            case 0x00...0x1F, 0xFFFE, 0xFFFF: expected += "\u{FFFD}"
            default: expected.unicodeScalars.append(scalar)
            }
        }
        // XML parsers turn CR LF and CR into LF.
        let read = reader.text
        expect(normalisedLineBreaks(read) == normalisedLineBreaks(expected),
               "XML text reads back as \(read.debugDescription), not \(expected.debugDescription)")
    }

    /// CR LF and CR as LF, scalar by scalar (Foundation's `replacingOccurrences` missed a CR
    /// followed by a combining mark: make fuzz, stop 29, a false report).
    static func normalisedLineBreaks(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n", previousWasCR { previousWasCR = false; continue }
            previousWasCR = scalar == "\r"
            result.append(previousWasCR ? "\n" : scalar)
        }
        return String(result)
    }

    /// Markdown text stays in its table cell and carries no raw HTML. Checked scalar by scalar,
    /// as CommonMark reads escapes: a prepended or combining scalar can fold a backslash or `|`
    /// into one `Character` with its neighbour, which says nothing about how Markdown reads it.
    static func checkMarkdown(_ name: String) {
        let cell = Array(MarkupText.markdown(name).unicodeScalars)
        for (index, scalar) in cell.enumerated() {
            expect(scalar != "\n" && scalar != "\r", "Markdown text breaks its line")
            expect(!MarkupText.isBidiControl(scalar), "Markdown text carries a bidirectional control")
            if scalar == "<" {
                expect(cell[index...].starts(with: "<br>".unicodeScalars), "Markdown carries raw HTML: \(name.debugDescription)")
            } else if scalar == "|" {
                expect(index > 0 && cell[index - 1] == "\\", "Markdown has an unescaped pipe: \(name.debugDescription)")
            }
        }
    }

    /// GitHub's workflow-command escaping round-trips, and a property cannot end its field.
    static func checkGitHub(_ name: String) {
        let data = GitHubReporter.escapeData(name)
        let property = GitHubReporter.escapeProperty(name)
        expect(!data.contains("\n") && !data.contains("\r"), "an annotation message breaks its line")
        expect(!property.contains(":") && !property.contains(",") && !property.contains("\n"),
               "an annotation property can end its field")
        func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
                .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
                .replacingOccurrences(of: "%25", with: "%")
        }
        expect(unescape(property) == name, "an annotation property does not read back as the name")
    }

    /// A diagram naming the version lays out and renders to inert SVG that shows the name.
    static func checkRenderedSVG(_ name: String) {
        let other = name == "Next" ? "Other" : "Next"
        let diagram = Diagram(nodes: [Diagram.Node(id: name, isTarget: false), Diagram.Node(id: other, isTarget: true)],
                              edges: [Diagram.Edge(from: name, to: other, kind: .lightweight, label: name)])
        let dot = DOTWriter().write(diagram)
        do {
            // The renderer refuses SVG with active content; any refusal here is a broken promise.
            let svg = try GraphvizRenderer.render(dot: dot, format: .svg)
            expect(!svg.isEmpty, "an empty SVG")
        } catch {
            fail("the DOT for \(name.debugDescription) does not render: \(error)")
        }
    }

    // MARK: - Checks

    static func checkLocations(_ diagnostics: [Diagnostic], _ stage: String) {
        for diagnostic in diagnostics {
            if let line = diagnostic.location?.line { expect(line >= 1, "\(stage): line \(line) in \(diagnostic.code)") }
            if let column = diagnostic.location?.column { expect(column >= 1, "\(stage): column \(column) in \(diagnostic.code)") }
            expect(!diagnostic.message.isEmpty, "\(stage): an empty message for \(diagnostic.code)")
        }
    }

    static func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fail(message()) }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("fuzz invariant broken: \(message)\n".utf8))
        abort()
    }
}

/// Collects an element's text content.
final class TextCollector: NSObject, XMLParserDelegate {
    var text = ""
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
