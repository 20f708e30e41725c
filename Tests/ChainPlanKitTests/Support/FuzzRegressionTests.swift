import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Inputs that once crashed a `make fuzz` target, kept in Tests/Fixtures/fuzz/<target>/ and
/// replayed here through the same reader the target drives: each must give a finding, not a
/// crash. (`make fuzz` replays them too, under AddressSanitizer.)
struct FuzzRegressionTests {
    struct Input: Sendable, CustomTestStringConvertible {
        var target: String
        var url: URL
        var testDescription: String { "\(target)/\(url.lastPathComponent)" }
    }

    static let inputs: [Input] = {
        let root = TestPaths.fixtures.appendingPathComponent("fuzz")
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return targets.sorted().flatMap { target in
            let folder = root.appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.sorted().map { Input(target: target, url: folder.appendingPathComponent($0)) }
        }
    }()

    @Test func everyTargetWithAFixtureIsKnown() {
        #expect(!Self.inputs.isEmpty)
        #expect(Set(Self.inputs.map(\.target)).isSubset(of: ["spec", "model", "inference", "mapping", "archive", "plist", "escaping"]))
    }

    @Test(arguments: inputs)
    func replays(_ input: Input) throws {
        let data = try Data(contentsOf: input.url)
        switch input.target {
        case "spec":
            for syntax in [SpecSyntax.json, .yaml] {
                let result = SpecReader(codes: PlanningRules.all).read(data: data, displayPath: "fuzz", syntax: syntax)
                #expect(result.spec != nil || !result.diagnostics.isEmpty)
            }
        case "model":
            let parsed = ModelContentsParser().parse(data, file: "contents")
            #expect(parsed.model != nil || !parsed.diagnostics.isEmpty)
        case "inference":
            // One `contents` document, or two joined by a NUL byte, compared as the target does.
            let models = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
                .compactMap { ModelContentsParser().parse(Data($0), file: "contents").model }
            for model in models { _ = MappingInference.infer(from: model, to: model) }
            if models.count == 2 {
                _ = MappingInference.infer(from: models[0], to: models[1])
                _ = MappingInference.infer(from: models[1], to: models[0])
            }
        case "mapping":
            let result = MappingModelReader.parse(data, name: "Fuzz", folderDisplay: "Fuzz.xcmappingmodel",
                                                  documentDisplay: "Fuzz.xcmappingmodel/xcmapping.xml")
            #expect(result.model != nil || !result.diagnostics.isEmpty)
        case "archive":
            #expect(throws: ArchiveError.self) { try ModelSnapshotDecoder.decode(data) }
        case "plist":
            #expect(MetadataPlist.decode(data) == nil)
            #expect(throws: StoreError.self) { try CompiledModelInfo.decode(data, displayPath: "VersionInfo.plist") }
        case "escaping":
            let name = String(decoding: data, as: UTF8.self)
            #expect(DOTWriter.label(name).hasPrefix("\""))
            #expect(Self.unescapedMarkdownPipes(name).isEmpty, "\(name.debugDescription)")
        default:
            Issue.record("no reader for fuzz target '\(input.target)'")
        }
    }

    /// Offsets (in scalars) of every `|` in `MarkupText.markdown(name)` that no backslash
    /// escapes, read scalar by scalar as CommonMark does.
    static func unescapedMarkdownPipes(_ name: String) -> [Int] {
        let cell = Array(MarkupText.markdown(name).unicodeScalars)
        return cell.indices.filter { cell[$0] == "|" && ($0 == 0 || cell[$0 - 1] != "\\") }
    }

    /// A prepended scalar (Arabic number signs, U+0600-U+0605) joins the next character into
    /// one grapheme: `make fuzz` once read `\u{603}|` as an unescaped pipe by comparing
    /// `Character`s. Escaping is per scalar; the pipe is escaped whatever precedes it.
    @Test(arguments: ["\u{603}|", "\u{600}|x", "a\u{605}||", "\u{301}|", "|\u{301}", "\u{110BD}|", "\u{603}\\|"])
    func pipesStayEscapedAfterPrependedScalars(_ name: String) {
        #expect(Self.unescapedMarkdownPipes(name).isEmpty, "\(MarkupText.markdown(name).debugDescription)")
        #expect(MarkupText.markdown(name).unicodeScalars.filter { $0 == "|" }.count == name.unicodeScalars.filter { $0 == "|" }.count)
    }

    /// Foundation crashes on any binary plist holding a set: every such plist is refused before
    /// it reaches the parser, whatever the set contains; plists without sets still read.
    @Test func binaryPlistsWithSetsAreRefusedAndOthersRead() throws {
        let sets = Self.inputs.filter { $0.target == "plist" }
        #expect(sets.count == 5)
        for input in sets {
            let refusal = PropertyListReader.refusal(try Data(contentsOf: input.url))
            #expect(refusal?.message.contains("contains a set") == true, "\(input.url.lastPathComponent)")
        }
        let plain = try PropertyListSerialization.data(fromPropertyList: ["NSStoreType": "SQLite", "list": [1, 2]],
                                                       format: .binary, options: 0)
        #expect(PropertyListReader.refusal(plain) == nil)
        #expect(MetadataPlist.decode(plain)?.storeType == "SQLite")
        // A trailer that points outside the file is refused before Foundation reads it.
        var broken = plain
        broken[broken.count - 1] = 0xFF
        #expect(PropertyListReader.refusal(broken)?.message.contains("malformed") == true)
    }
}
