import Foundation
import Testing
@testable import ChainPlanCLI

/// In-process runs of `chainplan inspect` (output goes to standard output; the report value
/// itself is checked in ChainPlanKitTests/Model/ModelInspectionTests).
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

    @Test("display paths are relative to the current directory when below it")
    func displayPath() {
        let cwd = FileManager.default.currentDirectoryPath
        let below = URL(fileURLWithPath: cwd).appendingPathComponent("Models/App.xcdatamodeld")
        #expect(InspectCommand.displayPath(for: below, asGiven: below.path) == "Models/App.xcdatamodeld")
        let outside = URL(fileURLWithPath: "/elsewhere/App.xcdatamodeld")
        if !cwd.hasPrefix("/elsewhere") {
            #expect(InspectCommand.displayPath(for: outside, asGiven: "/elsewhere/App.xcdatamodeld/") == "/elsewhere/App.xcdatamodeld")
        }
    }
}
