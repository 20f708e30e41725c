import ChainPlanTestSupport
import Foundation
import Testing
@testable import ChainPlanCLI
import ChainPlanKit
import ChainPlanCore

/// Every `$ chainplan …` example in README.md and in the pages of Docs/ (`documents`) is run
/// in-process from the repository root and its output (standard output, then standard error)
/// compared with the page line by line.
///
/// Normalised, because it is inherently machine-specific: simulated timings (`in 0.06 s`) and the
/// temporary folder that replaces the working directory for examples that write files. An expected
/// line `...` (indented or not, or one starting `...   (`) stands for any number of lines. Examples that need
/// files the repository does not hold are listed in `outsideTheRepository` with the reason; a new
/// example must run or be listed there. Both lists are keyed by command, whichever page holds it.
struct ReadmeExampleTests {
    static let root = CLITests.root

    struct Example: CustomTestStringConvertible, Sendable {
        /// The page, relative to the repository root (`README.md`, `Docs/dry-run.md`).
        var file: String
        var line: Int
        var command: String
        var expected: [String]
        /// `Docs/dry-run.md:42`
        var location: String { "\(file):\(line)" }
        var testDescription: String { "\(location): $ \(command)" }
    }

    /// The pages whose examples are checked, relative to the repository root: README.md, then every
    /// `Docs/*.md` sorted by name. `Docs/rules.md` is generated, so it is left out.
    static let documentNames: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? []
        let pages = docs.filter { $0.hasSuffix(".md") && $0 != "rules.md" }.sorted().map { "Docs/\($0)" }
        return ["README.md"] + pages
    }()

    struct Document: Sendable {
        var name: String
        var text: String
    }

    /// Each page's name and text, in `documentNames` order (a page that cannot be read is left out).
    static let documents: [Document] = documentNames.compactMap { name in
        (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)).map { Document(name: name, text: $0) }
    }

    /// Examples that run in a project a page describes but the repository does not hold.
    static let outsideTheRepository: [String: String] = [
        "chainplan dry-run Tests/Fixtures/Store/Checks/chain.json --store people.sqlite":
            "people.sqlite is a store the text describes (shared emails, a 200-year-old person), not a file in the repository",
        "chainplan stage chain.json --momd SampleModel3.momd --check broken.json":
            "broken.json is the user's hand-written stage plan; StageCorpusTests writes it and compares the output with this example",
        "chainplan validate":
            "runs in a user's project folder (a misread .chainplan.yml; an edited locked version); pinned by ConfigurationTests and LockTests",
    ]

    /// Examples over the shared corpus: run by `ReadmeCorpusExampleTests`, with the corpus folder as base.
    static let corpusExamples: [String: String] = [
        "chainplan hash SampleModel3/SampleModel3.xcdatamodeld --version SampleModel3_v2 --version SampleModel3_v3":
            "alemar11__CoreDataPlus/Tests/Resources",
        "chainplan hash FreezeRayTestApp/FreezeRayTestApp --version AppSchemaV1":
            "swiftdata/TrinsicVentures__FreezeRay",
    ]

    /// The examples of every page, in page order then line order: a `$ chainplan` line in a code
    /// fence and the lines after it up to the next `$ ` line or the fence's end.
    static let examples: [Example] = documents.flatMap { parseExamples(in: $0.text, file: $0.name) }

    /// The examples of one page, `file` naming it.
    static func parseExamples(in text: String, file: String) -> [Example] {
        var result: [Example] = []
        var inFence = false
        var current: Example?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = String(raw)
            if line.hasPrefix("```") {
                if let done = current { result.append(done); current = nil }
                inFence.toggle()
                continue
            }
            guard inFence else { continue }
            if line.hasPrefix("$ ") {
                if let done = current { result.append(done); current = nil }
                if line.hasPrefix("$ chainplan") {
                    current = Example(file: file, line: index + 1, command: String(line.dropFirst(2)), expected: [])
                }
                continue
            }
            current?.expected.append(line)
        }
        return result
    }

    static var runnable: [Example] {
        examples.filter { outsideTheRepository[$0.command] == nil && corpusExamples[$0.command] == nil }
    }

    /// Splits a command line the way a shell does for these examples (double quotes only).
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var started = false
        for character in command {
            if character == "\"" { quoted.toggle(); started = true; continue }
            if character == " " && !quoted {
                if started { words.append(word) }
                word = ""; started = false
                continue
            }
            word.append(character); started = true
        }
        if started { words.append(word) }
        return words
    }

    static func normalised(_ line: String) -> String {
        line.replacingOccurrences(of: #"in [0-9]+\.[0-9]+ s\b"#, with: "in <seconds> s", options: .regularExpression)
    }

    /// Whether `actual` matches `expected`, where an expected `...` line matches any run of lines.
    static func matches(_ actual: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        if trimmed == "..." || trimmed.hasPrefix("...   (") {
            for skip in 0...actual.count where matches(actual.dropFirst(skip), expected.dropFirst()) { return true }
            return false
        }
        guard let line = actual.first, normalised(line) == normalised(first) else { return false }
        return matches(actual.dropFirst(), expected.dropFirst())
    }

    /// Runs `example` with its arguments; files it writes go to a temporary folder.
    static func check(_ example: Example, base: URL?, scratch: URL) async throws {
        var arguments = Array(words(example.command).dropFirst())
        if let base {
            // A bundle, or a folder of Swift sources, named relative to the corpus folder.
            arguments = arguments.map { argument in
                let inBase = base.appendingPathComponent(argument).path
                return argument.hasSuffix(".xcdatamodeld") || (!argument.hasPrefix("-") && FileManager.default.fileExists(atPath: inBase))
                    ? inBase : argument
            }
        }
        // Outputs the example names relative to its working directory are written to `scratch`.
        var written: [String] = []
        for (index, word) in arguments.enumerated() where index > 0 && ["-o", "--sql-log"].contains(arguments[index - 1]) {
            written.append(word)
            arguments[index] = scratch.appendingPathComponent(word).path
        }
        for (index, word) in arguments.enumerated() where index > 0 && arguments[index - 1] == "--store" {
            arguments[index] = scratch.appendingPathComponent(word).path
        }
        let run = await OutputCapture.run(arguments)
        var output = (run.output + run.error).components(separatedBy: "\n")
        if output.last == "" { output.removeLast() }
        let prefix = scratch.path + "/"
        output = output.map { $0.replacingOccurrences(of: prefix, with: "").replacingOccurrences(of: DisplayPathForTests.relative(prefix), with: "") }
        var expected = example.expected
        while expected.last == "" { expected.removeLast() }
        #expect(matches(output[...], expected[...]),
                "\(example.location) differs from the binary's output:\n\(output.joined(separator: "\n"))")
    }

    @Test func theReadmeHasExamplesAndEachIsRunOrExplained() {
        #expect(Self.documentNames.first == "README.md")
        #expect(Self.documents.map(\.name) == Self.documentNames, "a page cannot be read")
        #expect(Self.examples.count >= 10)
        let commands = Set(Self.examples.map(\.command))
        for listed in Self.outsideTheRepository.keys.sorted() + Self.corpusExamples.keys.sorted() {
            #expect(commands.contains(listed), "listed example no longer in \(Self.documentNames.joined(separator: ", ")): \(listed)")
        }
    }

    @Test(arguments: runnable)
    func readmeExample(_ example: Example) async throws {
        #expect(FileManager.default.currentDirectoryPath == Self.root.path
                    || URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath() == Self.root.resolvingSymlinksInPath(),
                "the examples run from the repository root")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A dry run's store is the one the example before it, on the same page, wrote with `fixture`.
        if example.command.contains("dry-run"),
           let fixture = Self.examples.last(where: { $0.file == example.file && $0.line < example.line && $0.command.contains("fixture") }) {
            _ = await OutputCapture.run(Self.words(fixture.command).dropFirst().map { $0.hasSuffix(".sqlite") ? scratch.appendingPathComponent($0).path : $0 })
        }
        try await Self.check(example, base: nil, scratch: scratch)
    }
}

/// Display paths of scratch files, as chainplan prints them relative to the working directory.
enum DisplayPathForTests {
    static func relative(_ path: String) -> String {
        // chainplan's own rule: `../chainplan-readme-…/` when the scratch folder is a sibling of
        // the checkout (a clone under `mktemp -d`), relative below it, absolute elsewhere.
        let trailing = path.hasSuffix("/") ? "/" : ""
        return DisplayPath.make(URL(fileURLWithPath: path), relativeTo: DisplayPath.currentDirectory) + trailing
    }
}

extension CorpusTests {
    /// Examples (README.md or Docs/) that read the shared corpus.
    @Suite struct ReadmeCorpusExampleTests {
        @Test(arguments: ReadmeExampleTests.examples.filter { ReadmeExampleTests.corpusExamples[$0.command] != nil })
        func readmeCorpusExample(_ example: ReadmeExampleTests.Example) async throws {
            let base = SharedCorpus.corpus.appendingPathComponent(try #require(ReadmeExampleTests.corpusExamples[example.command]))
            try await ReadmeExampleTests.check(example, base: base, scratch: FileManager.default.temporaryDirectory)
        }
    }
}
