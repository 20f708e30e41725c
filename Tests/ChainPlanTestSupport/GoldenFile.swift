import Foundation
import Testing

/// Golden files: rendered output compared byte for byte with a file under `Tests/Fixtures`.
/// `RECORD_GOLDENS=1` rewrites the goldens that differ, and each test that rewrote one fails
/// ("recorded …; run again without RECORD_GOLDENS"): a recording run never reports success for
/// output it did not compare.
public enum GoldenFile {
    public enum Outcome: Sendable, Equatable {
        /// The golden holds exactly the output.
        case matches
        /// It differs (the output is written to the temporary directory as `<name>.actual`).
        case differs
        /// It differed and was rewritten (recording).
        case recorded
    }

    /// Compares `actual` with the golden at `url`; when `environment` has `RECORD_GOLDENS=1`,
    /// a differing or missing golden is rewritten instead. A missing golden outside recording throws.
    public static func compare(_ actual: Data, with url: URL,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Outcome {
        let existing = try? Data(contentsOf: url)
        if existing == actual { return .matches }
        if environment["RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url)
            return .recorded
        }
        guard existing != nil else { _ = try Data(contentsOf: url); return .differs }
        let failed = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(url.lastPathComponent + ".actual")
        try? actual.write(to: failed)
        return .differs
    }

    /// True when the golden at `url` holds exactly `actual`. A golden rewritten by a recording
    /// run is reported as a test issue and gives false.
    public static func check(_ actual: Data, with url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        switch try compare(actual, with: url) {
        case .matches: return true
        case .differs: return false
        case .recorded:
            Issue.record("recorded \(url.lastPathComponent); run again without RECORD_GOLDENS", sourceLocation: sourceLocation)
            return false
        }
    }
}
