import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ChainPlanCLI
@testable import ChainPlanHistory

/// `chainplan textconv FILE` on `Tests/Fixtures/Textconv/Notes.xcdatamodeld` (one version:
/// an abstract parent with a constraint, attributes of most types, two relationship pairs, a
/// fetched property, a fetch index, a fetch request, two configurations), run in-process; and
/// the `git diff` set-up of Docs/usage.md, in a real repository with the built binary.
@Suite("chainplan textconv")
struct TextconvCommandTests {
    static let bundle = Golden.fixtures.appendingPathComponent("Textconv/Notes.xcdatamodeld")
    static let contents = bundle.appendingPathComponent("Notes.xcdatamodel/contents")

    /// A temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-textconv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("golden output", arguments: [
        ([String](), "Golden/textconv/notes.txt"),
        (["--format", "json"], "Golden/textconv/notes.json"),
    ] as [([String], String)])
    func golden(_ arguments: [String], _ golden: String) async throws {
        let run = await OutputCapture.run(["textconv", Self.contents.path] + arguments)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty)
        #expect(try Golden.check(Data(run.output.utf8), against: golden), "\(golden) differs; see \(NSTemporaryDirectory())")
    }

    /// The file's name does not matter (git passes `/tmp/XXXXXX_contents`), and neither does its
    /// path: the text never names the file, so two copies of one model print the same bytes.
    @Test func anyFileNameGivesTheSameText() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Xy7_contents")
        try FileManager.default.copyItem(at: Self.contents, to: copy)
        let original = await OutputCapture.run(["textconv", Self.contents.path])
        let copied = await OutputCapture.run(["textconv", copy.path])
        #expect(copied.status == 0)
        #expect(copied.output == original.output)
        #expect(!copied.output.contains(folder.path))
    }

    /// Each entity's hash, and the checksum, are what `chainplan hash` prints for the bundle.
    @Test func hashesAreWhatHashPrints() async throws {
        let hash = await OutputCapture.run(["hash", Self.bundle.path, "--format", "json"])
        #expect(hash.status == 0)
        let hashDocument = try #require(try JSONSerialization.jsonObject(with: Data(hash.output.utf8)) as? [String: Any])
        let version = try #require((hashDocument["versions"] as? [[String: Any]])?.first)
        let expected = try #require(version["entities"] as? [String: String])
        #expect(expected.count == 4)

        let text = await OutputCapture.run(["textconv", Self.contents.path])
        let json = await OutputCapture.run(["textconv", Self.contents.path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let entities = try #require(document["entities"] as? [[String: Any]])
        var printed: [String: String] = [:]
        for entity in entities {
            printed[try #require(entity["name"] as? String)] = entity["hash"] as? String
        }
        #expect(printed == expected)
        #expect(document["checksum"] as? String == version["checksum"] as? String)
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "model checksum \(version["checksum"] as? String ?? "?")")
        for (name, hash) in expected {
            #expect(lines.contains { $0.hasPrefix("entity \(name)") && $0.hasSuffix("hash \(hash))") }, "\(name)")
        }
    }

    /// Facts a diff must show, one a line: a changed type, optionality, default or delete rule
    /// changes exactly that property's line (and the hashes when Core Data hashes it).
    @Test(arguments: [
        (#"<attribute name="title" optional="YES" attributeType="String"/>"#,
         #"<attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#,
         "  attribute title: String, optional", "  attribute title: Integer 64, optional, scalar", true),
        (#"<attribute name="name" attributeType="String"/>"#, #"<attribute name="name" optional="YES" attributeType="String"/>"#,
         "  attribute name: String", "  attribute name: String, optional", true),
        (#"defaultValueString="Notes""#, #"defaultValueString="Inbox""#,
         #"  attribute name: String, default "Notes""#, #"  attribute name: String, default "Inbox""#, false),
        (#"toMany="YES" deletionRule="Cascade""#, #"toMany="YES" deletionRule="Deny""#,
         "  relationship notes -> Note, to-many, optional, inverse folder, delete cascade",
         "  relationship notes -> Note, to-many, optional, inverse folder, delete deny", false),
    ] as [(String, String, String, String, Bool)])
    func oneChangedFactIsOneChangedLine(_ old: String, _ new: String, _ before: String, _ after: String, _ hashed: Bool) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOf: Self.contents, encoding: .utf8)
        #expect(original.contains(old))
        let edited = folder.appendingPathComponent("contents")
        try Data(original.replacingOccurrences(of: old, with: new).utf8).write(to: edited)
        let first = await OutputCapture.run(["textconv", Self.contents.path]).output.split(separator: "\n", omittingEmptySubsequences: false)
        let second = await OutputCapture.run(["textconv", edited.path]).output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(first.count == second.count)
        let changed = zip(first, second).filter { $0 != $1 }
        #expect(changed.contains { $0.0 == before && $0.1 == after }, "\(changed)")
        // The property's line, and with a hashed fact the checksum and its entity's heading.
        #expect(changed.count == (hashed ? 3 : 1), "\(changed)")
        if hashed { #expect(changed.first?.0.hasPrefix("model checksum ") == true) }
    }

    /// Names and values from the file cannot break the one-fact-a-line shape or reach the
    /// terminal as controls.
    @Test func hostileNamesStayOnTheirLine() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("contents")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A&#10;B&#x9b;31m">
                    <attribute name="x" attributeType="String" defaultValueString="one&#10;two &quot;\u{202E}"/>
                </entity>
            </model>
            """.utf8).write(to: file)
        let run = await OutputCapture.run(["textconv", file.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.output.contains("\u{9B}"))
        #expect(!run.output.contains("\u{202E}"))
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(#"entity A\nB\u{9B}31m  (hash "#) }, "\(lines)")
        #expect(lines.contains(#"  attribute x: String, default "one\ntwo \"\u{202E}""#), "\(lines)")
    }

    /// A model Xcode would refuse is still printed, its findings as lines, so that `git diff`
    /// works on it; a model without hashes says why.
    @Test(arguments: [
        ("CP115-2-duplicate-entity.xcdatamodeld", "[CP115]"),
        ("CP117-2-parent-entity-cycle.xcdatamodeld", "[CP117]"),
    ])
    func aModelXcodeRefusesIsStillPrinted(_ bundle: String, _ code: String) async throws {
        let file = CLITests.root.appendingPathComponent("Tests/Fixtures/hostile/\(bundle)/V1.xcdatamodel/contents")
        let run = await OutputCapture.run(["textconv", file.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("error: ") && $0.hasSuffix(code) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("entity ") })
        if code == "[CP117]" { #expect(lines.first?.hasPrefix("model checksum none: ") == true, "\(lines)") }
    }
}

extension TextconvCommandTests {
    /// How an unusable input is written into `folder`: its path.
    struct Unusable: Sendable, CustomTestStringConvertible {
        var name: String
        /// Extra arguments after the file.
        var arguments: [String] = []
        /// A line of standard error.
        var says: String
        var make: @Sendable (URL) throws -> URL
        var testDescription: String { name }
    }

    static func written(_ name: String, _ bytes: Data) -> @Sendable (URL) throws -> URL {
        { folder in
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            return url
        }
    }

    static func hostile(_ bundle: String) -> @Sendable (URL) throws -> URL {
        { _ in CLITests.root.appendingPathComponent("Tests/Fixtures/hostile/\(bundle)/V1.xcdatamodel/contents") }
    }

    static let model = #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#

    static let unusable: [Unusable] = [
        Unusable(name: "missing", says: "the model file does not exist [CP118]") { $0.appendingPathComponent("nothing_contents") },
        Unusable(name: "a directory", says: "the model file is a directory, not a regular file [CP118]") { $0 },
        Unusable(name: "a FIFO", says: "the model file is a FIFO, not a regular file [CP118]") { folder in
            let url = folder.appendingPathComponent("fifo_contents")
            guard mkfifo(url.path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return url
        },
        Unusable(name: "a device", says: "the model file is a device, not a regular file [CP118]") { _ in URL(fileURLWithPath: "/dev/zero") },
        Unusable(name: "empty", says: "[CP118]", make: written("empty_contents", Data())),
        Unusable(name: "not XML", says: "[CP118]", make: written("text_contents", Data("version https://git-lfs.github.com/spec/v1\noid sha256:0\n".utf8))),
        Unusable(name: "another root", says: "expected <model> [CP118]", make: written("plist_contents", Data("<?xml version=\"1.0\"?><plist/>".utf8))),
        Unusable(name: "truncated", says: "[CP118]", make: written("cut_contents", Data("<?xml version=\"1.0\"?>\(model)<entity name=\"A\">".utf8))),
        Unusable(name: "not UTF-8", says: "[CP118]", make: written("latin_contents", Data([0x3C, 0x6D, 0xFF, 0xFE, 0x3E]))),
        Unusable(name: "deep XML", says: "[CP118]",
                 make: written("deep_contents", Data(("<?xml version=\"1.0\"?>" + model + String(repeating: "<entity name=\"E\">", count: 100_000)
                     + String(repeating: "</entity>", count: 100_000) + "</model>").utf8))),
        Unusable(name: "billion laughs", says: "[CP118]", make: hostile("CP118-2-billion-laughs.xcdatamodeld")),
        Unusable(name: "external entity (file)", says: "[CP118]", make: hostile("CP118-2-xxe-file.xcdatamodeld")),
        Unusable(name: "external entity (network)", says: "[CP118]", make: hostile("CP118-2-xxe-network.xcdatamodeld")),
        Unusable(name: "external DTD", says: "[CP118]", make: hostile("CP118-2-external-dtd.xcdatamodeld")),
        Unusable(name: "over --max-contents-bytes", arguments: ["--max-contents-bytes", "100"],
                 says: "bytes, over the limit of 100 bytes [CP118]") { _ in TextconvCommandTests.contents },
    ]

    /// Unusable input: the reader's finding on standard error, nothing on standard output, exit 2.
    @Test(arguments: unusable)
    func unusableInputIsExit2(_ item: Unusable) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try item.make(folder)
        let run = await OutputCapture.run(["textconv", file.path] + item.arguments)
        #expect(run.status == 2, "\(run.error)")
        #expect(run.output.isEmpty, "\(run.output)")
        #expect(run.error.hasSuffix("\n"))
        #expect(run.error.split(separator: "\n").allSatisfy { $0.contains(": error: ") && $0.hasSuffix("[CP118]") }, "\(run.error)")
        #expect(run.error.contains(item.says), "\(run.error)")
    }

    @Test(arguments: [
        ["textconv"],
        ["textconv", "a", "b"],
        ["textconv", "a", "--format", "xml"],
    ])
    func usageErrorsAreExit2(_ arguments: [String]) async {
        #expect(await OutputCapture.run(arguments).status == 2)
    }

    /// Any limit from 0 up reads the file, the largest too (the reader's extra byte no longer
    /// overflows); a negative one refuses every file.
    @Test func byteLimits() async {
        let model = CLITests.root.appendingPathComponent("Tests/Fixtures/Textconv/Notes.xcdatamodeld/Notes.xcdatamodel/contents").path
        #expect(await OutputCapture.run(["textconv", model, "--max-contents-bytes", "\(Int.max)"]).status == 0)
        let negative = await OutputCapture.run(["textconv", model, "--max-contents-bytes=-1"])
        #expect(negative.status == 2)
        #expect(negative.error.contains("[CP118]"))
    }

    /// The built binary on the hostile inputs, as git would run it: no signal, no hang, bounded memory.
    @Test func theBinaryNeitherCrashesNorHangs() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ChildProcess.binary.path), "build chainplan first")
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for item in Self.unusable {
            let file = try item.make(folder)
            let outcome = try ChildProcess.run(["textconv", file.path] + item.arguments)
            #expect(outcome.status == 2 && !outcome.hung, "\(item.name): \(outcome)")
            #expect(outcome.peakKilobytes < 200 * 1024, "\(item.name): \(outcome)")
        }
    }
}

/// The set-up Docs/usage.md gives (`.gitattributes` and `diff.coredata.textconv`), in a real
/// repository made in a temporary folder, with the built binary as the textconv program. Git is
/// run with an argument vector; git itself runs the textconv command through its shell.
@Suite("chainplan textconv with git")
struct TextconvGitTests {
    let git = Git.onPath()

    /// The version folder's name has a space, as Xcode names the versions it adds.
    static let modelPath = "App/Model.xcdatamodeld/Model 2.xcdatamodel/contents"

    /// The line Docs/usage.md gives. A pattern with a slash is anchored where `.gitattributes`
    /// is, so `*.xcdatamodel/contents` alone would match only a version folder at the top.
    static let attributes = "**/*.xcdatamodel/contents diff=coredata\n"

    /// A repository in a new temporary folder, removed when it goes.
    final class Repo {
        let folder: URL
        let git: Git
        init(git: Git) throws {
            self.git = git
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-textconv-git-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try run("init", "-q")
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        /// `git <arguments>` with a fixed identity, no signing and no colour; its standard output.
        @discardableResult
        func run(_ arguments: String...) throws -> String {
            let all = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", "-c", "color.ui=false"] + arguments
            return String(decoding: try git.run(all, in: folder).get(), as: UTF8.self)
        }

        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// `git diff` with chainplan as the `coredata` driver's textconv program.
        func diff(_ arguments: String...) throws -> String {
            let textconv = "'" + ChildProcess.binary.path.replacingOccurrences(of: "'", with: #"'\''"#) + "' textconv"
            return String(decoding: try git.run(["-c", "color.ui=false", "-c", "diff.coredata.textconv=\(textconv)", "diff"] + arguments, in: folder).get(),
                          as: UTF8.self)
        }
    }

    @Test func theAttributesPatternMatchesEveryVersionFolder() throws {
        try #require(git.executable != nil, "git is needed")
        let repo = try Repo(git: git)
        try repo.write(".gitattributes", Self.attributes)
        for (path, driver) in [(Self.modelPath, "coredata"), ("Model.xcdatamodeld/Model.xcdatamodel/contents", "coredata"),
                               ("A/B/C/Model.xcdatamodeld/Model 10.xcdatamodel/contents", "coredata"),
                               ("App/Model.xcdatamodeld/.xccurrentversion", "unspecified"), ("App/contents", "unspecified"),
                               ("App/Mapping.xcmappingmodel/xcmapping.xml", "unspecified")] {
            #expect(try repo.run("check-attr", "diff", "--", path) == "\(path): diff: \(driver)\n", "\(path)")
        }
        // The pattern without `**/` is anchored at the top: it misses the bundle in App/.
        try repo.write(".gitattributes", "*.xcdatamodel/contents diff=coredata\n")
        #expect(try repo.run("check-attr", "diff", "--", Self.modelPath) == "\(Self.modelPath): diff: unspecified\n")
    }

    @Test func gitDiffShowsTheChangedFacts() throws {
        try #require(git.executable != nil, "git is needed")
        try #require(FileManager.default.isExecutableFile(atPath: ChildProcess.binary.path), "build chainplan first")
        let repo = try Repo(git: git)
        let original = try String(contentsOf: TextconvCommandTests.contents, encoding: .utf8)
        try repo.write(".gitattributes", Self.attributes)
        try repo.write(Self.modelPath, original)
        try repo.run("add", "-A")
        try repo.run("commit", "-q", "-m", "model")

        // A type change, and a move in Xcode's diagram, which is no fact.
        let edited = original
            .replacingOccurrences(of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
                                  with: #"<attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#)
            .replacingOccurrences(of: #"<entity name="Tag" representedClassName="Tag""#, with: #"<entity name="Tag" positionX="12" positionY="40" representedClassName="Tag""#)
        try repo.write(Self.modelPath, edited)

        // The work tree's side: git may hand chainplan the file itself or a temporary copy.
        let worktree = try repo.diff()
        // Both sides from the object store: temporary copies named `XXXXXX_contents`.
        try repo.run("commit", "-q", "-a", "-m", "title is a number")
        let committed = try repo.diff("HEAD~1", "HEAD")
        for diff in [worktree, committed] {
            let lines = diff.split(separator: "\n").map(String.init)
            #expect(lines.contains("-  attribute title: String, optional"), "\(diff)")
            #expect(lines.contains("+  attribute title: Integer 64, optional, scalar"), "\(diff)")
            #expect(lines.contains { $0.hasPrefix("-model checksum ") }, "\(diff)")
            #expect(lines.contains { $0.hasPrefix("+entity Note : Item  (hash ") }, "\(diff)")
            // Only facts changed: no XML, and nothing about the diagram.
            #expect(!diff.contains("<attribute"), "\(diff)")
            #expect(!diff.contains("position"), "\(diff)")
            let changed = lines.filter { ($0.hasPrefix("-") || $0.hasPrefix("+")) && !$0.hasPrefix("---") && !$0.hasPrefix("+++") }
            #expect(changed.count == 6, "\(changed)")
        }
        // Without the driver's program, git shows the XML.
        let raw = String(decoding: try git.run(["diff", "--no-textconv", "HEAD~1", "HEAD"], in: repo.folder).get(), as: UTF8.self)
        #expect(raw.contains(#"+        <attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#), "\(raw)")

        // A side that is no model makes chainplan exit 2, and git stops (as the docs say);
        // --no-textconv still shows it.
        try repo.write(Self.modelPath, "<model")
        do {
            let diff = try repo.diff()
            Issue.record("git diff did not fail on a file that is no model: \(diff)")
        } catch let failure as Git.Failure {
            guard case .failed(let status, let message) = failure else { throw failure }
            #expect(status != 0)
            #expect(message.contains("[CP118]"), "\(message)")
        }
        #expect(try repo.run("diff", "--no-textconv").contains("+<model"))
    }
}
