import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanOutput

/// `PlanOptions.analysesDirectJumpWork` off (the CLI's choice when no JSON is written) leaves out
/// exactly the direct jumps' SQLite work, and no format but JSON shows that work: every other
/// rendering, in both views, is the same bytes either way. A new field of the report that the
/// skipped analysis fed, or a format that starts showing it, fails here.
@Suite struct DirectJumpWorkTests {
    static let root = SharedCorpus.packageRoot

    static func plan(_ spec: String, jumpWork: Bool) -> ChainReport {
        var options = PlanOptions()
        options.deferredLightweightMigration = true
        options.analysesDirectJumpWork = jumpWork
        return ChainPlanner(options: options).plan(inputAt: root.appendingPathComponent(spec), configuration: nil)
    }

    @Test(arguments: ["Chains/aircraft-staged/chain.json", "Chains/grocery-dude/chain.json", "Chains/notas/chain.json",
                      "Chains/corestore-tree/chain.json"])
    func onlyTheJumpsWorkIsLeftOut(_ spec: String) throws {
        let full = Self.plan(spec, jumpWork: true)
        let skipped = Self.plan(spec, jumpWork: false)
        // The example has direct jumps whose work the full plan analyses.
        #expect(full.paths.contains { $0.direct?.sqlite != nil }, "\(spec)")
        #expect(!skipped.paths.contains { $0.direct?.sqlite != nil }, "\(spec)")
        var cleared = full
        for index in cleared.paths.indices { cleared.paths[index].direct?.sqlite = nil }
        #expect(cleared == skipped, "\(spec)")
        for view in [ReportView.diagnostics, .paths(from: nil)] {
            for format in OutputFormat.allCases where format != .json {
                let options = RenderOptions(view: view)
                #expect(Reporters.render(full, as: format, options: options) == Reporters.render(skipped, as: format, options: options),
                        "\(spec) \(format) \(view)")
            }
        }
        #expect(ReviewReporter.markdown(full, diagramLink: nil) == ReviewReporter.markdown(skipped, diagramLink: nil), "\(spec)")
        #expect(ReviewReporter.html(full, diagramSVG: nil) == ReviewReporter.html(skipped, diagramSVG: nil), "\(spec)")
    }

    /// The default keeps the analysis (library callers see every field).
    @Test func onByDefault() {
        #expect(PlanOptions().analysesDirectJumpWork)
    }
}
