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

struct SpecReaderTests {
    // MARK: - Forms

    @Test func arrayForm() throws {
        let spec = try #require(SpecText.read(#"["MyAppModel", "MyAppModelV2", "MyAppModelV3"]"#).spec)
        #expect(spec.form == .array)
        #expect(spec.arrayEntries.map(\.value) == ["MyAppModel", "MyAppModelV2", "MyAppModelV3"])
        #expect(spec.arrayEntries[1].location == SourceLocation(file: "chain.json", line: 1, column: 16))
    }

    @Test func versionTreeResolvesLikeCoreStore() throws {
        let text = #"{"MyAppModel": "MyAppModelV3", "MyAppModelV2": "MyAppModelV4", "MyAppModelV3": "MyAppModelV4"}"#
        let report = SpecText.plan(text)
        #expect(report.diagnostics.isEmpty)
        #expect(report.target == "MyAppModelV4")
        let paths = Dictionary(uniqueKeysWithValues: report.paths.map { ($0.start, ($0.steps ?? []).map { "\($0.from)>\($0.to)" }) })
        #expect(paths["MyAppModel"] == ["MyAppModel>MyAppModelV3", "MyAppModelV3>MyAppModelV4"])
        #expect(paths["MyAppModelV2"] == ["MyAppModelV2>MyAppModelV4"])
        #expect(paths["MyAppModelV3"] == ["MyAppModelV3>MyAppModelV4"])
        #expect(paths["MyAppModelV4"] == [])
    }

    @Test func fullForm() throws {
        let text = """
        {"$schema": "https://example.invalid/chain.schema.json",
         "chain": ["A", "B", "C"],
         "model": "Model.xcdatamodeld",
         "target": "C",
         "mappings": {"A -> B": "AToB.xcmappingmodel", "B → C": "BToC.xcmappingmodel"}}
        """
        let read = SpecText.read(text)
        #expect(read.diagnostics.isEmpty)
        let spec = try #require(read.spec)
        #expect(spec.form == .array)
        #expect(spec.model?.value == "Model.xcdatamodeld")
        #expect(spec.model?.location == SourceLocation(file: "chain.json", line: 3, column: 11))
        #expect(spec.target?.value == "C")
        #expect(spec.mappings.map { "\($0.from)|\($0.to)|\($0.path)" } == ["A|B|AToB.xcmappingmodel", "B|C|BToC.xcmappingmodel"])
    }

    @Test func chainKeyWithAStringValueIsATreeEntry() throws {
        let spec = try #require(SpecText.read(#"{"chain": "V2", "V2": "V3"}"#).spec)
        #expect(spec.form == .tree)
        #expect(spec.treeEntries.map { "\($0.source.value)>\($0.destination.value)" } == ["chain>V2", "V2>V3"])
    }

    @Test(arguments: ["null", "[]", "{}", "~", "chain: null"])
    func emptyChainsAreValid(_ text: String) throws {
        let read = SpecText.read(text, syntax: text.contains("chain") || text == "~" ? .yaml : .json)
        #expect(read.diagnostics.isEmpty)
        #expect(try #require(read.spec).form == .empty)
    }

    @Test func singleVersionString() throws {
        let spec = try #require(SpecText.read(#""V1""#).spec)
        #expect(spec.form == .single)
        #expect(SpecText.plan(#""V1""#).target == "V1")
    }

    @Test func yamlKeepsNamesExactlyAsWritten() throws {
        let spec = try #require(SpecText.read("- 1.9\n- 1.10\n- 2.0\n- v1.0-2\n- 'Model 2'\n", syntax: .yaml).spec)
        #expect(spec.arrayEntries.map(\.value) == ["1.9", "1.10", "2.0", "v1.0-2", "Model 2"])
        let tree = try #require(SpecText.read("1.10: 1.20\n", syntax: .yaml).spec)
        #expect(tree.treeEntries.first?.source.value == "1.10")
        #expect(tree.treeEntries.first?.destination.value == "1.20")
    }

    @Test func utf8BOMAndCRLFAreAccepted() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("[\"A\",\r\n \"B\"]\r\n".utf8))
        let read = SpecReader(codes: PlanningRules.all).read(data: data, displayPath: "chain.json", syntax: .json)
        #expect(read.diagnostics.isEmpty)
        let spec = try #require(read.spec)
        #expect(spec.arrayEntries.map(\.value) == ["A", "B"])
        #expect(spec.arrayEntries[1].location.line == 2)
    }

    @Test func syntaxSniffing() {
        #expect(SpecReader.syntax(forPath: "x/chain.json", data: Data("a: b".utf8)) == .json)
        #expect(SpecReader.syntax(forPath: "chain.yml", data: Data("[]".utf8)) == .yaml)
        #expect(SpecReader.syntax(forPath: "chain", data: Data(#"["A"]"#.utf8)) == .json)
        #expect(SpecReader.syntax(forPath: "chain", data: Data("- A\n".utf8)) == .yaml)
        #expect(SpecReader.syntax(forPath: "chain", data: Data("[A, B]".utf8)) == .yaml)
    }

    // MARK: - CP100, each at its location

    struct BadSpec: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var syntax: SpecSyntax
        var line: Int?
        var column: Int?
        var fragment: String
        var testDescription: String { name }
    }

    static let badSpecs: [BadSpec] = [
        BadSpec(name: "truncated JSON", text: "[\"A\",\n \"B\"", syntax: .json, line: 2, column: 5, fragment: "invalid JSON"),
        BadSpec(name: "number where a name belongs", text: #"["A", 2]"#, syntax: .json, line: 1, column: 7, fragment: "found '2'"),
        BadSpec(name: "boolean where a name belongs", text: #"{"A": true}"#, syntax: .json, line: 1, column: 7, fragment: "found 'true'"),
        BadSpec(name: "nested array", text: "[\"A\", [\"B\"]]", syntax: .json, line: 1, column: 7, fragment: "found an array"),
        BadSpec(name: "object as destination", text: #"{"A": {"B": "C"}}"#, syntax: .json, line: 1, column: 7, fragment: "found an object"),
        BadSpec(name: "empty name", text: #"["A", ""]"#, syntax: .json, line: 1, column: 7, fragment: "must not be empty"),
        BadSpec(name: "null name in YAML", text: "- A\n- ~\n", syntax: .yaml, line: 2, column: 3, fragment: "found null"),
        BadSpec(name: "unknown full-form key", text: "{\"chain\": [\"A\"],\n \"modle\": \"M.xcdatamodeld\"}", syntax: .json, line: 2, column: 2, fragment: "unknown key 'modle'"),
        BadSpec(name: "bad mappings key", text: #"{"chain": ["A", "B"], "mappings": {"A to B": "x.xcmappingmodel"}}"#, syntax: .json, line: 1, column: 36, fragment: "\"From -> To\""),
        BadSpec(name: "YAML syntax error", text: "A: B\n  C: D\n", syntax: .yaml, line: 2, column: 4, fragment: "invalid YAML"),
        BadSpec(name: "NUL byte", text: "[\"A\",\n\0]", syntax: .json, line: 2, column: 1, fragment: "NUL"),
        BadSpec(name: "empty file", text: " \n", syntax: .json, line: nil, column: nil, fragment: "empty"),
        BadSpec(name: "YAML alias", text: "base: &b V1\nV2: *b\n", syntax: .yaml, line: 2, column: 5, fragment: "aliases"),
        BadSpec(name: "multiple documents", text: "- A\n---\n- B\n", syntax: .yaml, line: 2, column: 1, fragment: "invalid YAML"),
        // A `.json` spec is strict JSON: what YAML would accept is refused at its token.
        BadSpec(name: "JSON comment", text: "# the chain\n[\"A\", \"B\"]", syntax: .json, line: 1, column: 1, fragment: "comments are not allowed"),
        BadSpec(name: "JSON comment after a value", text: "[\"A\", # first\n \"B\"]", syntax: .json, line: 1, column: 7, fragment: "comments are not allowed"),
        BadSpec(name: "JSON // comment", text: "[\"A\",\n // B next\n \"B\"]", syntax: .json, line: 2, column: 2, fragment: "comments are not allowed"),
        BadSpec(name: "JSON single quotes", text: "{'A': 'B'}", syntax: .json, line: 1, column: 2, fragment: "double quotes"),
        BadSpec(name: "JSON single-quoted value", text: "{\"A\": 'B'}", syntax: .json, line: 1, column: 7, fragment: "double quotes"),
        BadSpec(name: "JSON trailing comma in an array", text: "[\"A\",\"B\",]", syntax: .json, line: 1, column: 9, fragment: "trailing comma before ']'"),
        BadSpec(name: "JSON trailing comma in an object", text: "{\"A\": \"B\",\n}", syntax: .json, line: 1, column: 10, fragment: "trailing comma before '}'"),
        BadSpec(name: "JSON YAML tag", text: "[\"A\", !!int 3]", syntax: .json, line: 1, column: 7, fragment: "YAML tags"),
        BadSpec(name: "JSON block sequence", text: "- !!int 3\n", syntax: .json, line: 1, column: 1, fragment: "invalid JSON"),
        BadSpec(name: "JSON bare word", text: "[\"A\", B]", syntax: .json, line: 1, column: 7, fragment: "'B' is not a JSON value"),
        BadSpec(name: "JSON missing comma", text: "[\"A\" \"B\"]", syntax: .json, line: 1, column: 6, fragment: "expected ',' or ']'"),
        BadSpec(name: "JSON content after the document", text: "[\"A\"]\n[\"B\"]", syntax: .json, line: 2, column: 1, fragment: "after the end"),
        BadSpec(name: "JSON leading zero", text: "[\"A\", 01]", syntax: .json, line: 1, column: 7, fragment: "leading zeros"),
        BadSpec(name: "JSON unknown escape", text: "[\"A\", \"B\\x41\"]", syntax: .json, line: 1, column: 9, fragment: "invalid escape"),
        BadSpec(name: "JSON lone high surrogate", text: "[\"a\\ud83d\", \"b\"]", syntax: .json, line: 1, column: 4, fragment: "surrogate"),
        BadSpec(name: "JSON lone low surrogate", text: "[\"x\", \"a\\ude80\"]", syntax: .json, line: 1, column: 9, fragment: "surrogate"),
        BadSpec(name: "JSON tab in a string", text: "[\"A\tB\"]", syntax: .json, line: 1, column: 4, fragment: "control character"),
        BadSpec(name: "JSON unterminated string", text: "[\"A\", \"B]", syntax: .json, line: 1, column: 7, fragment: "unterminated"),
        // YAML names are strings: a scalar explicitly tagged as something else is refused.
        BadSpec(name: "YAML !!int name", text: "- A\n- !!int 3\n", syntax: .yaml, line: 2, column: 3, fragment: "tagged !!int"),
        BadSpec(name: "YAML !!float key", text: "A: B\n!!float 1.5: C\n", syntax: .yaml, line: 2, column: 1, fragment: "tagged !!float"),
        BadSpec(name: "YAML custom tag", text: "- A\n- !custom B\n", syntax: .yaml, line: 2, column: 3, fragment: "tagged !custom"),
    ]

    @Test(arguments: badSpecs)
    func unreadableSpecsReportCP100AtTheirLocation(_ bad: BadSpec) {
        let read = SpecText.read(bad.text, syntax: bad.syntax)
        let first = read.diagnostics.first
        #expect(first?.code == .unreadableSpec)
        #expect(first?.location?.line == bad.line)
        #expect(first?.location?.column == bad.column)
        #expect(first?.message.contains(bad.fragment) == true, "\(first?.message ?? "no diagnostic")")
    }

    /// Valid JSON is accepted whatever libyaml thinks of it: surrogate-pair escapes (as Python's
    /// json.dump writes emoji) are read as the character, and every later token keeps its place.
    @Test func surrogatePairEscapesAreReadAsTheCharacter() throws {
        let read = SpecText.read(#"{"chain": ["a\ud83d\ude80","b"], "target": "b\uD83D\uDE80\u00e9"}"#)
        #expect(read.diagnostics.isEmpty)
        let spec = try #require(read.spec)
        #expect(spec.arrayEntries.map(\.value) == ["a🚀", "b"])
        #expect(spec.arrayEntries.map(\.location) == [SourceLocation(file: "chain.json", line: 1, column: 12),
                                                     SourceLocation(file: "chain.json", line: 1, column: 28)])
        #expect(spec.target?.value == "b🚀é")
        #expect(spec.target?.location == SourceLocation(file: "chain.json", line: 1, column: 44))
    }

    @Test func surrogatePairsInKeysAndOnLaterLines() throws {
        let text = "{\"A\\ud83d\\ude80\": \"B\\ud83d\\ude80\", \"C\": \"B\\ud83d\\ude80\"}"
        let read = SpecText.read("\r\n\t" + text)
        #expect(read.diagnostics.isEmpty)
        let spec = try #require(read.spec)
        #expect(spec.treeEntries.map { "\($0.source.value)>\($0.destination.value)" } == ["A🚀>B🚀", "C>B🚀"])
        #expect(spec.treeEntries.map { "\($0.destination.location.line ?? 0):\($0.destination.location.column ?? 0)" } == ["2:20", "2:42"])
    }

    /// Raw characters JSON allows in strings but YAML calls non-printable are kept too.
    @Test func rawCharactersYAMLRefusesAreKept() throws {
        let read = SpecText.read("[\"A\u{FEFF}\u{85}\u{9F}\u{2028}\", \"B\"]")
        #expect(read.diagnostics.isEmpty)
        let spec = try #require(read.spec)
        #expect(spec.arrayEntries.map(\.value) == ["A\u{FEFF}\u{85}\u{9F}\u{2028}", "B"])
        #expect(spec.arrayEntries[1].location == SourceLocation(file: "chain.json", line: 1, column: 11))
    }

    /// A sniffed JSON spec (no extension) is strict JSON as well.
    @Test func sniffedJSONWithSurrogatesIsJSON() throws {
        let data = Data(#"["a\ud83d\ude80", "b"]"#.utf8)
        #expect(SpecReader.syntax(forPath: "chain", data: data) == .json)
        let read = SpecReader(codes: PlanningRules.all).read(data: data, displayPath: "chain", syntax: SpecReader.syntax(forPath: "chain", data: data))
        #expect(read.diagnostics.isEmpty)
        #expect(read.spec?.arrayEntries.map(\.value) == ["a🚀", "b"])
    }

    /// YAML names may be plain, quoted or `!!str`; the tag check does not refuse those.
    @Test func yamlStringTagsAreNames() throws {
        let read = SpecText.read("- 3\n- '4'\n- !!str 5\n- 1.10\n", syntax: .yaml)
        #expect(read.diagnostics.isEmpty)
        #expect(read.spec?.arrayEntries.map(\.value) == ["3", "4", "5", "1.10"])
    }

    @Test func everyBadEntryIsReportedNotJustTheFirst() {
        let read = SpecText.read(#"["A", 1, "B", [], ""]"#)
        #expect(read.diagnostics.map(\.location?.column) == [7, 15, 19])
        #expect(read.spec == nil)
    }

    @Test func invalidUTF8IsLocated() {
        var data = Data("[\"A\",\n \"".utf8)
        data.append(contentsOf: [0xC0, 0xAF]) // overlong encoding of "/"
        data.append(Data("\"]".utf8))
        let read = SpecReader(codes: PlanningRules.all).read(data: data, displayPath: "chain.json", syntax: .json)
        #expect(read.diagnostics.map(\.code) == [.unreadableSpec])
        #expect(read.diagnostics.first?.location == SourceLocation(file: "chain.json", line: 2, column: 3))
    }

    @Test(arguments: [("[", "]", SpecSyntax.json), ("{\"a\": ", "}", .json), ("- ", "", .yaml), ("[", "]", .yaml)])
    func hundredThousandLevelsDoNotOverflowTheStack(_ open: String, _ close: String, _ syntax: SpecSyntax) {
        let depth = 100_000
        let text = String(repeating: open, count: depth) + "\"A\"" + String(repeating: close, count: depth)
        let read = SpecText.read(text, syntax: syntax)
        #expect(read.spec == nil)
        #expect(read.diagnostics.first?.code == .unreadableSpec)
        #expect(read.diagnostics.first?.message.contains("deeper") == true)
    }

    @Test func aliasBombIsRefusedBeforeExpansion() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...30 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let read = SpecText.read(text, syntax: .yaml)
        #expect(read.spec == nil)
        #expect(read.diagnostics.first?.code == .unreadableSpec)
        #expect(read.diagnostics.first?.location?.line == 2)
    }

    @Test func oversizedSpecIsRefusedWithoutParsing() {
        let read = SpecText.read("[\"" + String(repeating: "x", count: 2_000) + "\"]", maxBytes: 1_000)
        #expect(read.diagnostics.first?.code == .unreadableSpec)
        #expect(read.diagnostics.first?.message.contains("limit") == true)
    }

    /// Both paths to the size limit name the option that raises it: the file read and the YAML/JSON scanner.
    @Test func oversizedSpecFileNamesTheOption() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("chain.json")
        try Data(("[\"" + String(repeating: "x", count: 2_048) + "\"]").utf8).write(to: file)
        let fromFile = SpecReader(maxBytes: 1_000, codes: PlanningRules.all).read(fileAt: file, displayPath: "chain.json")
        #expect(fromFile.diagnostics.map(\.message) == ["cannot read the spec: '\(file.path)' is 2052 bytes, over the limit of 1000 bytes (--max-spec-bytes)"])
        let fromText = SpecText.read("[\"" + String(repeating: "x", count: 2_000) + "\"]", maxBytes: 1_000)
        #expect(fromText.diagnostics.first?.message.contains("(--max-spec-bytes)") == true)
    }

    @Test func gigantic10kNameIsKept() throws {
        let name = String(repeating: "é", count: 10_000)
        let spec = try #require(SpecText.read("[\"\(name)\", \"B\"]").spec)
        #expect(spec.arrayEntries.first?.value == name)
    }

    // MARK: - Files

    @Test func directoriesFIFOsAndMissingFilesAreCP100() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("chain.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let loop = directory.appendingPathComponent("loop.json")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        let unreadable = directory.appendingPathComponent("secret.json")
        try Data("[]".utf8).write(to: unreadable)
        chmod(unreadable.path, 0o000)
        let cases: [(URL, String)] = [
            (directory, "a directory"),
            (fifo, "a FIFO"),
            (directory.appendingPathComponent("missing.json"), "does not exist"),
            (loop, "loop"),
        ]
        for (url, fragment) in cases {
            let read = SpecReader(codes: PlanningRules.all).read(fileAt: url, displayPath: "spec")
            #expect(read.diagnostics.map(\.code) == [.unreadableSpec])
            #expect(read.diagnostics.first?.message.contains(fragment) == true, "\(read.diagnostics)")
        }
        if getuid() != 0 {
            #expect(SpecReader(codes: PlanningRules.all).read(fileAt: unreadable, displayPath: "spec").diagnostics.first?.code == .unreadableSpec)
        }
    }
}
