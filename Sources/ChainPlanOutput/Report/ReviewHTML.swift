import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// The HTML review document (`chainplan report -o review.html`), laid out for long histories
/// (issue 19 §3): what a reviewer needs first comes first, the bulk is folded.
///
/// 1. The verdict and the summary, then a table of contents.
/// 2. **New steps**: the steps into the target (the newest model, the one a pull request adds),
///    or with `since` every step into a version after it (`report --since V`), and every finding
///    about them, or "no findings".
/// 3. **Findings**, sorted by severity (errors, warnings, notes; history order within each),
///    each linked to its step; a place shows its path's last two components (all of it on hover).
/// 4. The diagram at 1:1 (it scrolls inside its frame instead of shrinking to the page).
/// 5. Where every store goes.
/// 6. **Steps**: an index of every step (kind, and a mark on those with findings), then each
///    step folded in a `<details>` element with the anchor `step-N` (N its position in the
///    chain, never a name); steps with an error or a warning start unfolded.
/// 7. The staged plan, deferred work and mapping models, as before.
///
/// Every name from the input is escaped; anchors are numbers.
enum ReviewHTML {
    static func render(_ report: ChainReport, diagramSVG: String?, stagePlan: StagePlan?, since: String? = nil) -> Data {
        let x = MarkupText.xml
        var anchors: [StepKey: Int] = [:]
        for (index, step) in report.steps.enumerated() where anchors[StepKey(from: step.from, to: step.to)] == nil {
            anchors[StepKey(from: step.from, to: step.to)] = index + 1
        }
        func anchor(of diagnostic: Diagnostic) -> Int? {
            diagnostic.versions.count == 2 ? anchors[StepKey(from: diagnostic.versions[0], to: diagnostic.versions[1])] : nil
        }
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"/>
            <title>Migration review: \(x(report.spec))</title>
            <style>\(ReviewReporter.css)</style>
            </head>
            <body>

            """
        out += "<h1>Migration review: <code>\(x(report.spec))</code></h1>\n"
        out += "<p class=\"verdict \(report.summary.verdict)\">\(report.summary.verdict == "pass" ? "Pass" : "Fail"): "
            + "\(Reporters.counts(report.summary))</p>\n<dl class=\"summary\">\n"
        for line in ReviewReporter.summaryLines(report) { out += "<dt>\(x(line.label))</dt><dd>\(x(line.value))</dd>\n" }
        out += "</dl>\n"

        let deferral = DeferralLines.lines(report)
        var contents = [("new", "New steps"), ("findings", "Findings (\(report.diagnostics.count))")]
        if diagramSVG != nil { contents.append(("diagram", "Diagram")) }
        contents += [("paths", "Where every store goes"), ("steps", "Steps (\(report.steps.count))")]
        if stagePlan != nil { contents.append(("staged", "Staged migration")) }
        if !deferral.isEmpty { contents.append(("deferred", "Deferred lightweight migration")) }
        contents.append(("mapping-models", "Mapping models used"))
        out += "<nav class=\"toc\"><strong>Contents</strong><ol>\n"
            + contents.map { "<li><a href=\"#\($0.0)\">\(x($0.1))</a></li>" }.joined(separator: "\n") + "\n</ol></nav>\n"

        // New steps: those into the target (or into a version after `since`), and their findings.
        let later = since.flatMap { report.versions.firstIndex(of: $0) }.map { Set(report.versions[($0 + 1)...]) }
        let newSteps = report.steps.enumerated().filter { later?.contains($0.element.to) ?? ($0.element.to == report.target) }
        out += "<h2 id=\"new\">New steps</h2>\n"
        if newSteps.isEmpty {
            out += later == nil ? "<p>No step leads to the target.</p>\n" : "<p>No step leads to a version after <code>\(x(since ?? ""))</code>.</p>\n"
        } else {
            out += (later == nil ? "<p>Steps into the target <code>\(x(report.target ?? ""))</code>: " : "<p>Steps into versions after <code>\(x(since ?? ""))</code>: ")
                + newSteps.map { "<a href=\"#step-\($0.offset + 1)\">\(x($0.element.from)) → \(x($0.element.to))</a> (\(x(ReviewReporter.kind($0.element))))" }
                    .joined(separator: ", ") + ".</p>\n"
            let newKeys = Set(newSteps.map { StepKey(from: $0.element.from, to: $0.element.to) })
            let newFindings = report.diagnostics.filter { $0.versions.count == 2 && newKeys.contains(StepKey(from: $0.versions[0], to: $0.versions[1])) }
            out += newFindings.isEmpty ? "<p>No findings about them.</p>\n" : findingsTable(bySeverity(newFindings), anchor: anchor)
        }

        out += "<h2 id=\"findings\">Findings</h2>\n"
        out += report.diagnostics.isEmpty ? "<p>None.</p>\n" : findingsTable(bySeverity(report.diagnostics), anchor: anchor)

        if let diagramSVG {
            out += "<h2 id=\"diagram\">Diagram</h2>\n<figure class=\"diagram\">\n\(ReviewReporter.inlineSVG(diagramSVG))\n</figure>\n"
        }

        out += "<h2 id=\"paths\">Where every store goes</h2>\n<table>\n<thead><tr><th>Start</th><th>Path</th><th>Steps</th><th>Direct jump</th><th>Verdict</th></tr></thead>\n<tbody>\n"
        for row in ReviewReporter.matrix(report) {
            out += "<tr class=\"\(row.rowClass)\"><td>\(x(row.start))</td><td>\(x(row.path))</td><td>\(x(row.kinds))</td><td>\(x(row.direct))</td><td>\(x(row.verdict))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"

        out += "<h2 id=\"steps\">Steps</h2>\n"
        let worst = Dictionary(grouping: report.diagnostics.filter { $0.accepted == nil }, by: { anchor(of: $0) ?? 0 }).mapValues { $0.map(\.severity).max() }
        if !report.steps.isEmpty {
            out += "<ol class=\"step-index\">\n" + report.steps.enumerated().map { index, step in
                let mark = worst[index + 1].flatMap { $0 }.map { " <span class=\"mark \($0.rawValue)\">\($0.rawValue)</span>" } ?? ""
                return "<li><a href=\"#step-\(index + 1)\">\(x(step.from)) → \(x(step.to))</a> <span class=\"kind \(kindClass(step))\">\(x(ReviewReporter.kind(step)))</span>\(mark)</li>"
            }.joined(separator: "\n") + "\n</ol>\n"
        }
        for (index, step) in report.steps.enumerated() {
            let changes = step.changes ?? []
            let severity = worst[index + 1].flatMap { $0 }
            let open = severity.map { $0 >= .warning } ?? false
            out += "<details class=\"step\" id=\"step-\(index + 1)\"\(open ? " open" : "")>\n<summary>\(x(step.from)) → \(x(step.to)): "
                + "<span class=\"kind \(kindClass(step))\">\(x(ReviewReporter.kind(step)))</span>"
                + (changes.isEmpty ? "" : " <span class=\"count\">\(changes.count) change\(changes.count == 1 ? "" : "s")</span>")
                + (severity.map { " <span class=\"mark \($0.rawValue)\">\($0.rawValue)</span>" } ?? "") + "</summary>\n"
            if let mapping = step.mappingModel {
                out += "<p>Mapping model <code>\(x(mapping.path))</code>" + (mapping.policies.isEmpty ? "" : ", policies \(mapping.policies.map(x).joined(separator: ", "))") + ".</p>\n"
            }
            let sqlite = ReviewReporter.deferralDetail(step)
            if !sqlite.isEmpty { out += "<ul class=\"sqlite\">\n" + sqlite.map { "<li>\(x($0))</li>\n" }.joined() + "</ul>\n" }
            if changes.isEmpty {
                out += "<p>\(step.migration == nil ? "Not classified (no model bundle)." : "No changes.")</p>\n</details>\n"
                continue
            }
            out += "<table>\n<thead><tr><th>Change</th><th>Verdict</th><th>Rule</th><th>Basis</th></tr></thead>\n<tbody>\n"
            for change in changes {
                out += "<tr class=\"\(x(change.verdict.rawValue))\"><td>\(x(change.detail))</td><td>\(x(change.verdict.rawValue))</td>"
                    + "<td>\(x(change.rule))\(change.code.map { " <code>\($0.rawValue)</code>" } ?? "")</td><td>\(x(change.basis.rawValue))</td></tr>\n"
            }
            out += "</tbody>\n</table>\n</details>\n"
        }
        if let stagePlan { out += "<div id=\"staged\">\n" + StagePlanRendering.html(stagePlan) + "</div>\n" }
        if !deferral.isEmpty {
            out += "<h2 id=\"deferred\">Deferred lightweight migration</h2>\n<ul>\n" + deferral.map { "<li>\(x($0))</li>\n" }.joined() + "</ul>\n"
        }
        out += "<h2 id=\"mapping-models\">Mapping models used</h2>\n"
        let mappings = ReviewReporter.mappingModels(report)
        out += mappings.isEmpty ? "<p>None.</p>\n"
            : "<ul>\n" + mappings.map { "<li>\(x($0.step)): <code>\(x($0.path))</code>\(x($0.policies))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        out += "<footer>chainplan \(x(report.tool.version)), report schema \(report.schemaVersion)</footer>\n</body>\n</html>\n"
        return Data(out.utf8)
    }

    /// Errors first, then warnings, then notes; history order within each (the report's order).
    static func bySeverity(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        Severity.allCases.reversed().flatMap { severity in diagnostics.filter { $0.severity == severity } }
    }

    /// A findings table; the Where cell links to the step a finding is about, when it is one.
    static func findingsTable(_ diagnostics: [Diagnostic], anchor: (Diagnostic) -> Int?) -> String {
        let x = MarkupText.xml
        var out = "<table class=\"findings\">\n<thead><tr><th>Severity</th><th>Code</th><th>Where</th><th>Finding</th></tr></thead>\n<tbody>\n"
        for diagnostic in diagnostics {
            let place = diagnostic.location.map(shortPlace) ?? ""
            let step = anchor(diagnostic).map { " <a href=\"#step-\($0)\">step \($0)</a>" } ?? ""
            out += "<tr class=\"\(diagnostic.accepted == nil ? diagnostic.severity.rawValue : "accepted")\"><td>\(Reporters.severityLabel(diagnostic))</td><td><code>\(diagnostic.code.rawValue)</code></td>"
                + "<td>\(place)\(step)</td><td>\(x(Reporters.findingText(diagnostic)))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    /// A finding's place as the last two components of its path (`Model 32.xcdatamodel/contents:14:5`),
    /// the whole path in the tooltip: long corpus paths otherwise fill the column line by line.
    static func shortPlace(_ location: SourceLocation) -> String {
        let x = MarkupText.xml
        let full = location.description
        let components = location.file.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 2 else { return x(full) }
        let short = "…/" + components.suffix(2).joined(separator: "/") + full.dropFirst(location.file.count)
        return "<span class=\"place\" title=\"\(x(full))\">\(x(short))</span>"
    }

    /// The CSS class of a step's kind (`needs-a-mapping-model`).
    static func kindClass(_ step: ChainReport.Step) -> String {
        MarkupText.xml(ReviewReporter.kind(step)).replacingOccurrences(of: " ", with: "-")
    }
}
