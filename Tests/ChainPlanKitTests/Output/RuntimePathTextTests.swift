import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanPlanning
@testable import ChainPlanOutput

/// `explain` says which runtime path runs an inferred step (core-data-internals §5): Core Data's
/// in-place SQLite migrator, whose process-wide switch default is unverified, and CoreStore's
/// in-memory retry. A step with a mapping model prints no runtime lines.
struct RuntimePathTextTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var path: SQLiteWork.Path
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "inferred step", path: .inPlace,
             expected: ["runtime (which migration path runs this inferred step):", "  Core Data: in place (NSSQLiteInPlaceMigrationManager)",
                        "on by default is unverified", "  CoreStore: the same in-place migration first", "NSMigrationManager subclass"]),
        Case(name: "mapping-model step", path: .mappingModel, expected: []),
    ]

    @Test(arguments: cases)
    func runtimeLines(_ c: Case) throws {
        let work = try #require(DeferredWorkTests.work(DeferredWorkTests.note, DeferredWorkTests.noteWithoutBody, deferring: false, path: c.path))
        let text = work.runtimeLines().joined(separator: "\n")
        for fragment in c.expected { #expect(text.contains(fragment), "\(fragment) in \(text)") }
        #expect(work.runtimeLines().isEmpty == c.expected.isEmpty)
    }

    /// `explain`'s text carries the lines after the SQLite work; `--changes-only` (no SQLite work) drops both.
    @Test func explainTextPrintsThemAfterTheSQLiteWork() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let spec = root.appendingPathComponent("Chains/notas/chain.json")
        var report = try ChainPlanner().explain(inputAt: spec, from: "Notas", to: "Notas 2").get()
        let text = report.renderText()
        let sqlite = try #require(text.range(of: "SQLite: in place"))
        let runtime = try #require(text.range(of: "runtime (which migration path runs this inferred step):"))
        #expect(sqlite.upperBound < runtime.lowerBound)
        report.sqlite = nil
        #expect(!report.renderText().contains("runtime ("))
    }
}
