import Foundation
import Testing
@testable import ChainPlanCLI

/// In-process runs of `chainplan inspect` (output goes to standard output; the report value
/// itself is checked in ChainPlanKitTests/Readers/ModelInspectionTests).
@Suite("chainplan inspect")
struct InspectCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/Model")

    static func path(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    @Test("exit status", arguments: [
        (["Single.xcdatamodeld"], Int32(0)),
        (["Single.xcdatamodeld", "--format", "json"], 0),
        (["Legacy.xcdatamodeld", "--format", "json"], 0),
        (["Single.xcdatamodeld", "--version", "Only One"], 0),
        (["MissingCurrent.xcdatamodeld", "--format", "json"], 1),
        (["Broken.xcdatamodeld", "--format", "json"], 2),
        (["Nope.xcdatamodeld"], 2),
        (["Single.xcdatamodeld", "--version", "Two"], 2),
        (["Single.xcdatamodeld", "--format", "yaml"], 2),
    ] as [([String], Int32)])
    func exitStatus(_ arguments: [String], _ expected: Int32) async {
        let resolved = [Self.path(arguments[0])] + arguments.dropFirst()
        #expect(await ChainPlan.run(arguments: ["inspect"] + resolved) == expected)
    }
}
