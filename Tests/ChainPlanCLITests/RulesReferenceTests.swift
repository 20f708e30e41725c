import Foundation
import Testing
@testable import ChainPlanCLI
import ChainPlanKit
import ChainPlanCore

/// `Docs/rules.md` is `chainplan rules --format md`: it lists every finding code, and a rule
/// changed without regenerating it fails here (`chainplan rules --format md > Docs/rules.md`).
@Suite struct RulesReferenceTests {
    @Test func docsRulesIsUpToDate() async throws {
        let page = try String(contentsOf: CLITests.root.appendingPathComponent("Docs/rules.md"), encoding: .utf8)
        let run = await OutputCapture.run(["rules", "--format", "md"])
        #expect(run.status == 0)
        #expect(run.output == page, "Docs/rules.md is stale: run `chainplan rules --format md > Docs/rules.md`")
    }

    @Test func everyCodeHasASection() throws {
        let page = try String(contentsOf: CLITests.root.appendingPathComponent("Docs/rules.md"), encoding: .utf8)
        for code in RuleCatalogue.all {
            #expect(page.contains("\n## \(code.rawValue)\n"), "\(code.rawValue) missing from Docs/rules.md")
        }
    }
}
