import Foundation
import Testing
@testable import ChainPlanCLI

/// One error path: every command that stops on unusable input throws `UsageError`, which
/// `ChainPlan.run` renders once on standard error (each finding as the text reporter writes it,
/// then `chainplan: error: …` when there is a message) with exit status 2 and nothing on
/// standard output. Output captured in-process.
@Suite struct UnusableInputPathTests {
    /// A folder with a spec whose model bundle does not exist, and a folder that is not a bundle.
    static func project() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-unusable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Empty.xcdatamodeld"), withIntermediateDirectories: true)
        try Data(#"{"chain": ["A", "B"], "model": "Missing.xcdatamodeld"}"#.utf8).write(to: folder.appendingPathComponent("chain.json"))
        try Data("rules:\n  CP999: off\n".utf8).write(to: folder.appendingPathComponent("bad.yml"))
        return folder
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// A line standard error must contain.
        var line: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["graph", "$F/chain.json"], line: "[CP111]"),
        Case(arguments: ["lock", "$F/chain.json"], line: "chainplan: error: nothing to lock: the spec names no readable model bundle"),
        Case(arguments: ["lock", "$F/chain.json", "--config", "$F/bad.yml"], line: "[CP130]"),
        Case(arguments: ["stage", "$F/chain.json", "--config", "$F/bad.yml"], line: "[CP130]"),
        Case(arguments: ["explain", "$F/chain.json", "A", "B"], line: "[CP111]"),
        Case(arguments: ["init", "$F/Empty.xcdatamodeld", "-o", "$F/out.json"], line: "[CP111]"),
        Case(arguments: ["inspect", "$R/Tests/Fixtures/Model/AllFields.xcdatamodeld", "--version", "X"],
             line: "chainplan: error: the bundle has no version 'X'"),
        Case(arguments: ["hash", "--store", "$F/missing.sqlite"], line: "chainplan: error: "),
    ]

    @Test(arguments: cases)
    func renderedOnce(_ c: Case) async throws {
        let folder = try Self.project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = c.arguments.map {
            $0.replacingOccurrences(of: "$F/", with: folder.path + "/").replacingOccurrences(of: "$R/", with: CLITests.root.path + "/")
        }
        let run = await OutputCapture.run(arguments)
        #expect(run.status == 2, "\(run.error)")
        #expect(run.output.isEmpty, "\(run.output)")
        let lines = run.error.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(c.line) }, "\(run.error)")
        #expect(Set(lines).count == lines.count, "a line was rendered twice: \(run.error)")
        for line in lines {
            #expect(line.hasPrefix("chainplan: error: ") || line.contains(": error: "), "\(line)")
        }
    }
}
