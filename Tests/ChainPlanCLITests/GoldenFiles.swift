import Foundation

/// Golden files under Tests/Fixtures: compared byte for byte; `RECORD_GOLDENS=1` rewrites them.
/// On a mismatch the actual output is written to the temporary directory for `diff`.
enum Golden {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")

    static func check(_ actual: Data, against relativePath: String) throws -> Bool {
        let url = fixtures.appendingPathComponent(relativePath)
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url)
            return true
        }
        let expected = try Data(contentsOf: url)
        if expected != actual {
            let failed = FileManager.default.temporaryDirectory.appendingPathComponent(url.lastPathComponent + ".actual")
            try? actual.write(to: failed)
        }
        return expected == actual
    }
}
