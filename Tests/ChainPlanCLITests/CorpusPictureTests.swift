import Foundation
import Testing
import ChainPlanTestSupport
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanOutput
import ChainPlanPlanning

extension CorpusTests {
    /// Issue 19 §3 on the two longest corpus histories (WooCommerce 117 versions, Wire 90): the
    /// diagram collapses clean runs by default, every failing or lossy step keeps its cause as a
    /// label and warnings their style, the legend lists only what appears, `--expand` draws every
    /// version and `--from V` only V's path; the HTML report leads with the verdict and the new
    /// steps, and folds each step under an anchor.
    @Suite struct CorpusPictureTests {
        static let bundles = [
            "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld",
            "wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld",
        ]

        static func nodeLines(_ dot: String) -> [Substring] {
            dot.split(separator: "\n").filter { line in
                let rest = line.dropFirst(3)
                let digits = rest.prefix { $0.isNumber }
                return line.hasPrefix("  n") && !digits.isEmpty && rest.dropFirst(digits.count).hasPrefix(" [")
            }
        }

        @Test(arguments: bundles)
        func theDiagramFitsAndSaysWhy(_ relative: String) async throws {
            let bundle = SharedCorpus.corpus.appendingPathComponent(relative).path
            let report = ChainPlanner().plan(inputAt: URL(fileURLWithPath: bundle), configuration: nil)
            let collapsed = await OutputCapture.run(["graph", bundle, "--format", "dot"])
            #expect(collapsed.status == 0)
            let drawn = Self.nodeLines(collapsed.output).count
            #expect(drawn < report.versions.count / 2, "\(drawn) of \(report.versions.count) versions drawn")
            #expect(collapsed.output.contains("lightweight steps …"))
            // Every failing or lossy step is an edge with a label saying why.
            let diagram = Diagram(report: report)
            let causes = diagram.edges.filter { $0.kind == .failing || $0.isWarning }
            #expect(!causes.isEmpty)
            for edge in causes {
                let label = try #require(edge.label, "\(edge.from) → \(edge.to)")
                #expect(collapsed.output.contains("label=\(DOTWriter.label(label))"), "\(label)")
            }
            for step in report.steps where step.losesData == true && step.mappingModel == nil {
                let edge = diagram.edges.first { $0.from == step.from && $0.to == step.to }
                #expect(edge?.isWarning == true && edge?.label?.hasPrefix("drops data") == true, "\(step.from) → \(step.to)")
            }
            #expect(collapsed.output.contains("#f59f00") && collapsed.output.contains("warning (drops data, or could fail)"))
            // The legend lists what appears only.
            #expect(!collapsed.output.contains("label=\"on a cycle\""))
            #expect(!collapsed.output.contains("label=\"unknown version\""))
            let expanded = await OutputCapture.run(["graph", bundle, "--format", "dot", "--expand"])
            #expect(Self.nodeLines(expanded.output).count == report.versions.count)
            // --from renders V's path only.
            let start = report.versions[report.versions.count - 4]
            let scoped = await OutputCapture.run(["graph", bundle, "--format", "dot", "--from", start])
            #expect(Self.nodeLines(scoped.output).count == 4, "\(scoped.output)")
        }

        @Test(arguments: bundles)
        func theHTMLReportLeadsWithTheVerdictAndFoldsTheSteps(_ relative: String) async throws {
            let bundle = SharedCorpus.corpus.appendingPathComponent(relative).path
            let run = await OutputCapture.run(["report", bundle, "--format", "html"])
            let html = run.output
            let order = ["class=\"verdict", "id=\"new\"", "id=\"findings\"", "id=\"diagram\"", "id=\"paths\"", "id=\"steps\""]
            let positions = order.compactMap { html.range(of: $0)?.lowerBound }
            #expect(positions.count == order.count && positions == positions.sorted(), "\(order)")
            #expect(html.contains("<nav class=\"toc\">"))
            let steps = html.components(separatedBy: "<details class=\"step\" id=\"step-").count - 1
            #expect(steps == ChainPlanner().plan(inputAt: URL(fileURLWithPath: bundle), configuration: nil).steps.count)
            #expect(html.contains("href=\"#step-1\""))
            // The findings table runs errors, then warnings, then notes.
            let findings = html.components(separatedBy: "id=\"findings\"").last?.components(separatedBy: "id=\"diagram\"").first ?? ""
            let rows = findings.components(separatedBy: "<tr class=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
            let rank = ["error": 0, "warning": 1, "note": 2, "accepted": 3]
            let ranks = rows.compactMap { rank[$0] }
            #expect(!ranks.isEmpty && ranks == ranks.sorted(), "\(rows.prefix(20))")
        }
    }
}
