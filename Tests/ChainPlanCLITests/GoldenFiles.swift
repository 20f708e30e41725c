import Foundation
import ChainPlanTestSupport
import Testing

/// Golden files under Tests/Fixtures, by path relative to it (see `GoldenFile`).
enum Golden {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")

    static func check(_ actual: Data, against relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Bool {
        try GoldenFile.check(actual, with: fixtures.appendingPathComponent(relativePath), sourceLocation: sourceLocation)
    }
}
