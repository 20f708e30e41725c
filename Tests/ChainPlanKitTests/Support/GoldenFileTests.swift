import Foundation
import ChainPlanTestSupport
import Testing

/// A recording run (`RECORD_GOLDENS=1`) never reports success for a golden it rewrote. (Seen
/// failing before the fix: with a golden edited by hand, `RECORD_GOLDENS=1 swift test --filter
/// ReportCommandTests` rewrote it and passed.)
@Suite struct GoldenFileTests {
    static let recording = ["RECORD_GOLDENS": "1"]

    static func golden(_ text: String?) throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chainplan-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("out.txt")
        if let text { try Data(text.utf8).write(to: url) }
        return url
    }

    @Test(arguments: [
        // golden, output, recording, outcome, golden afterwards
        ("same", "same", false, GoldenFile.Outcome.matches, "same"),
        ("old", "new", false, .differs, "old"),
        ("same", "same", true, .matches, "same"),
        ("old", "new", true, .recorded, "new"),
        (nil, "new", true, .recorded, "new"),
    ] as [(String?, String, Bool, GoldenFile.Outcome, String)])
    func outcome(_ golden: String?, _ output: String, _ recording: Bool, _ outcome: GoldenFile.Outcome, _ after: String) throws {
        let url = try Self.golden(golden)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(try GoldenFile.compare(Data(output.utf8), with: url, environment: recording ? Self.recording : [:]) == outcome)
        #expect(try String(contentsOf: url, encoding: .utf8) == after)
    }

    @Test func missingGoldenOutsideRecordingThrows() throws {
        let url = try Self.golden(nil)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(throws: (any Error).self) { try GoldenFile.compare(Data("x".utf8), with: url, environment: [:]) }
    }
}
