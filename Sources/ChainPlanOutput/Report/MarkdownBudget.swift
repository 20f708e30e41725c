import ChainPlanCore
import ChainPlanPlanning
/// A Markdown report fits a GitHub comment (65,536 characters): a long history's full review is
/// several times that (WooCommerce's 117 versions, Wire's 90). When the full document is too
/// long, it is abridged, and says so at the top:
///
/// - the matrix lists only the start versions that fail, lose data or cannot reach the target;
/// - steps are detailed only when they have findings, lose data or use a mapping model, with at
///   most 12 changes each;
/// - then, while the document is still too long: the stage plan goes, at most 5, 2, then no changes
///   per step, then no step detail;
/// - only then are findings cut: listed errors first, then warnings, then notes, as many as fit
///   (found by bisection), the rest counted by severity.
package enum MarkdownBudget {
    package static let gitHubCommentLimit = 65_536

    /// GitHub counts characters; Unicode scalars never undercount them.
    static func length(_ text: String) -> Int { text.unicodeScalars.count }

    struct Cut {
        var detailedSteps: Set<StepKey>
        var changesPerStep: Int
        var stagePlan: Bool
        var findings: Int

        func notice(_ report: ChainReport) -> String {
            var parts = [detailedSteps.isEmpty ? "the detail of every step" : "steps without findings, data loss or a mapping model",
                         "start versions that migrate with all their data"]
            if changesPerStep < 12 { parts.append("changes beyond \(changesPerStep) per step") }
            if !stagePlan { parts.append("the staged migration plan") }
            if findings < report.diagnostics.count { parts.append("\(report.diagnostics.count - findings) of \(report.diagnostics.count) findings") }
            return "Abridged to fit a GitHub comment (\(gitHubCommentLimit.formattedPOSIX) characters). Left out: "
                + parts.joined(separator: "; ") + ". `chainplan report -o review.html` has everything."
        }
    }

    static func abridged(_ report: ChainReport, diagramLink: String?, stagePlan: StagePlan?, limit: Int) -> String {
        let flagged = Set(report.diagnostics.filter { $0.versions.count == 2 }.map { StepKey(from: $0.versions[0], to: $0.versions[1]) })
        let detailed = Set(report.steps.filter { step in
            step.losesData == true || step.mappingModel != nil || step.migration == .heavyweight
                || flagged.contains(StepKey(from: step.from, to: step.to))
        }.map { StepKey(from: $0.from, to: $0.to) })
        func render(_ cut: Cut) -> String {
            ReviewReporter.markdownSections(report, diagramLink: diagramLink, stagePlan: stagePlan, abridged: cut)
        }
        // Findings matter most: step detail and the stage plan go first, findings only last.
        var cut = Cut(detailedSteps: detailed, changesPerStep: 12, stagePlan: stagePlan != nil, findings: report.diagnostics.count)
        for (changes, stages, steps) in [(12, true, true), (12, false, true), (5, false, true), (2, false, true), (0, false, true), (0, false, false)] {
            cut.changesPerStep = changes
            cut.stagePlan = stages && stagePlan != nil
            cut.detailedSteps = steps ? detailed : []
            if length(render(cut)) <= limit { return render(cut) }
        }
        // The most findings that fit, errors first.
        var low = 0, high = report.diagnostics.count
        while low < high {
            let middle = (low + high + 1) / 2
            cut.findings = middle
            if length(render(cut)) <= limit { low = middle } else { high = middle - 1 }
        }
        cut.findings = low
        let text = render(cut)
        return length(text) <= limit ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit - 200))) + "\n\n… (cut at \(limit.formattedPOSIX) characters)\n"
    }
}

extension Int {
    /// `65,536`: grouped by thousands, the same on every machine.
    var formattedPOSIX: String {
        let digits = String(Swift.abs(self))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return (self < 0 ? "-" : "") + out
    }
}
