import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanPlanning

/// The CLI analyses the direct jumps' SQLite work only when a JSON document is written (the only
/// format that shows it, `DirectJumpWorkTests`): `paths --deferred --format json` still carries
/// it, alone or beside another format; text output is the same as with the work analysed.
struct DirectJumpWorkCommandTests {
    static let spec = CLITests.root.appendingPathComponent("Chains/aircraft-staged/chain.json").path

    static func jumpsWithWork(_ json: String) throws -> Int {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [[String: Any]])
        return paths.filter { ($0["direct"] as? [String: Any])?["sqlite"] != nil }.count
    }

    @Test(arguments: [["paths"], ["validate"]])
    func jsonCarriesTheJumpsWork(_ command: [String]) async throws {
        let json = await OutputCapture.run(command + [Self.spec, "--deferred", "--format", "json"])
        #expect(json.status == 0, "\(json.error)")
        #expect(try Self.jumpsWithWork(json.output) == 2)
        // JSON to a file beside text on standard output: analysed too.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-jumps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.json").path
        let both = await OutputCapture.run(command + [Self.spec, "--deferred", "--format", "json", "-o", file, "--format", "text"])
        #expect(both.status == 0, "\(both.error)")
        #expect(try Self.jumpsWithWork(String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)) == 2)
        // Text alone (the work not analysed) prints what text beside JSON prints.
        let text = await OutputCapture.run(command + [Self.spec, "--deferred"])
        #expect(text.output == both.output)
    }
}
