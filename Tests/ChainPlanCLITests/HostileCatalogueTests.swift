import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The hostile-input catalogue (`Tests/Fixtures/hostile/`, see its README): every case gives
/// its coded finding and exit status, in a child process, with no signal, within 5 s of CPU time
/// and 200 MB.
@Suite("hostile inputs", .serialized)
struct HostileCatalogueTests {
    static let folder = CLITests.root.appendingPathComponent("Tests/Fixtures/hostile")

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var code: String
        var status: Int32
        var testDescription: String { file }

        init?(file: String) {
            let parts = file.split(separator: "-", maxSplits: 2)
            guard parts.count == 3, let status = Int32(parts[1]) else { return nil }
            self.file = file
            self.code = String(parts[0])
            self.status = status
        }
    }

    static let cases: [Case] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .sorted().compactMap(Case.init(file:))

    /// What a recipe writes (see the catalogue's README).
    struct Recipe: Decodable {
        var files: [String: [Part]]?
        var fifos: [String]?
        var directories: [String]?
        var symlinks: [String: String]?
        var versions: Versions?
        var input: String
        var arguments: [String]?

        struct Part: Decodable {
            var text: String
            var count: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                text = try container.decode(String.self)
                count = try container.decode(Int.self)
            }
        }

        struct Versions: Decodable {
            var bundle: String
            var count: Int
        }
    }

    /// Writes the case into `directory`; returns the input and extra arguments.
    static func prepare(_ item: Case, in directory: URL) throws -> (input: String, arguments: [String]) {
        let source = folder.appendingPathComponent(item.file)
        guard item.file.hasSuffix(".recipe") else {
            try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent(item.file))
            return (item.file, [])
        }
        let recipe = try JSONDecoder().decode(Recipe.self, from: Data(contentsOf: source))
        func url(_ path: String) throws -> URL {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return url
        }
        for (path, parts) in recipe.files ?? [:] {
            var data = Data()
            for part in parts { data.append(Data(String(repeating: part.text, count: part.count).utf8)) }
            try data.write(to: try url(path))
        }
        for path in recipe.fifos ?? [] { #expect(mkfifo(try url(path).path, 0o644) == 0) }
        for path in recipe.directories ?? [] { try FileManager.default.createDirectory(at: try url(path), withIntermediateDirectories: true) }
        for (link, target) in recipe.symlinks ?? [:] { #expect(symlink(target, try url(link).path) == 0) }
        if let versions = recipe.versions {
            let model = #"<?xml version="1.0"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0"><entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity></model>"#
            for number in 1...versions.count {
                try Data(model.utf8).write(to: try url("\(versions.bundle)/V\(number).xcdatamodel/contents"))
            }
        }
        return (recipe.input, recipe.arguments ?? [])
    }

    @Test func catalogueIsComplete() {
        #expect(Self.cases.count >= 30)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []).filter { $0 != "README.md" }
        #expect(names.count == Self.cases.count, "every file is named <code>-<exit>-<what>")
    }

    /// Runs `command` on the case in a fresh folder, under the guard; checks the bounds every
    /// case must keep, and returns the output file's text (nil when the run refused the input).
    static func run(_ item: Case, _ command: String, format: String, output: String) throws -> String? {
        try #require(FileManager.default.isExecutableFile(atPath: ChildProcess.binary.path), "build chainplan first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (input, arguments) = try prepare(item, in: directory)
        let file = directory.appendingPathComponent(output)
        let outcome = try ChildProcess.run([command, directory.appendingPathComponent(input).path, "--format", format, "-o", file.path] + arguments)
        #expect(!outcome.hung, "\(outcome)")
        #expect(outcome.signal == nil, "\(outcome)")
        #expect(outcome.status == item.status, "\(outcome)")
        #expect(outcome.peakKilobytes < 200 * 1024, "\(outcome)")
        let text = try? String(contentsOf: file, encoding: .utf8)
        // Nothing from outside the input leaks into the output (XXE, /etc/passwd).
        #expect(text?.contains("root:x:0:0") != true)
        return text
    }

    @Test(arguments: cases)
    func hostileInput(_ item: Case) throws {
        let text = try #require(try Self.run(item, "validate", format: "json", output: "report.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let codes = Set((document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String })
        if item.code == "none" {
            #expect(codes.isEmpty, "\(codes)")
        } else {
            #expect(codes.contains(item.code), "\(codes.sorted())")
        }
    }

    /// The review report does everything `validate` does and more (classification, the diagram,
    /// the matrix of every path): each case must stay within the same bounds there too.
    @Test(arguments: cases)
    func hostileInputInTheReviewReport(_ item: Case) throws {
        _ = try Self.run(item, "report", format: "html", output: "review.html")
    }
}
