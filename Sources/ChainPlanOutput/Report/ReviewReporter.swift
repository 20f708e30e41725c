import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// The pre-release review document (`chainplan report`): the verdict, the diagram, where every
/// start version goes, every step's changes with the rule behind them, the findings and the
/// mapping models used. Markdown for pull-request comments, HTML for one self-contained file.
///
/// Pure: the diagram comes in already rendered (SVG text, checked by `SVGSafety`); every name from
/// the input is escaped for the format.
package enum ReviewReporter {
    /// GitHub-flavoured Markdown. `diagramLink` is the relative path of the SVG written next to the
    /// document, or nil when there is none (standard output). A document longer than a GitHub
    /// comment allows is abridged to fit (see `MarkdownBudget`).
    package static func markdown(_ report: ChainReport, diagramLink: String?, stagePlan: StagePlan? = nil,
                                limit: Int = MarkdownBudget.gitHubCommentLimit) -> Data {
        let full = markdownSections(report, diagramLink: diagramLink, stagePlan: stagePlan, abridged: nil)
        if MarkdownBudget.length(full) <= limit { return Data(full.utf8) }
        return Data(MarkdownBudget.abridged(report, diagramLink: diagramLink, stagePlan: stagePlan, limit: limit).utf8)
    }

    /// The Markdown document; `abridged` leaves parts out (and says which) when it is set.
    static func markdownSections(_ report: ChainReport, diagramLink: String?, stagePlan: StagePlan?, abridged: MarkdownBudget.Cut?) -> String {
        let md = MarkupText.markdown
        var out = "# Migration review: \(md(report.spec))\n\n"
        out += summaryLines(report).map { "- \($0.label): \(md($0.value))" }.joined(separator: "\n") + "\n"
        if let abridged { out += "\n> " + abridged.notice(report) + "\n" }
        if let diagramLink {
            out += "\n![Migration chain](\(diagramLink.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? diagramLink))\n"
        }
        out += "\n## Where every store goes\n\n| Start | Path | Steps | Direct jump | Verdict |\n|---|---|---|---|---|\n"
        let rows = matrix(report)
        for row in rows where abridged == nil || !row.ok {
            out += "| \(md(row.start)) | \(md(row.path)) | \(md(row.kinds)) | \(md(row.direct)) | \(row.ok ? md(row.verdict) : "**\(md(row.verdict))**") |\n"
        }
        if abridged != nil, case let ok = rows.filter(\.ok).count, ok > 0 {
            out += "\n\(ok) start version\(ok == 1 ? "" : "s") that reach the target with all their data \(ok == 1 ? "is" : "are") not listed.\n"
        }
        out += "\n## Steps\n"
        var detailed = 0
        for step in report.steps {
            if let abridged, !abridged.detailedSteps.contains(StepKey(from: step.from, to: step.to)) { continue }
            detailed += 1
            out += "\n### \(md(step.from)) → \(md(step.to)): \(md(kind(step)))\n\n"
            if let mapping = step.mappingModel {
                out += "Mapping model \(MarkupText.markdownCode(mapping.path))" + (mapping.policies.isEmpty ? "" : ", policies \(mapping.policies.map(md).joined(separator: ", "))") + ".\n\n"
            }
            let sqlite = deferralDetail(step)
            if !sqlite.isEmpty { out += sqlite.map { "- \(md($0))" }.joined(separator: "\n") + "\n\n" }
            let changes = step.changes ?? []
            if changes.isEmpty {
                out += step.migration == nil ? "Not classified (no model bundle).\n" : "No changes.\n"
                continue
            }
            let shown = abridged.map { changes.prefix($0.changesPerStep) } ?? changes[...]
            if !shown.isEmpty { out += "| Change | Verdict | Rule (basis) |\n|---|---|---|\n" }
            for change in shown {
                out += "| \(md(change.detail)) | \(md(change.verdict.rawValue)) | \(md(change.rule)) (\(change.basis.rawValue))\(change.code.map { " \($0.rawValue)" } ?? "") |\n"
            }
            if shown.count < changes.count {
                out += "\(shown.isEmpty ? "" : "\n")\(changes.count - shown.count) \(shown.isEmpty ? "" : "more ")change\(changes.count - shown.count == 1 ? "" : "s") not listed (`chainplan explain` shows them).\n"
            }
        }
        if abridged != nil, detailed < report.steps.count {
            out += "\n\(report.steps.count - detailed) step\(report.steps.count - detailed == 1 ? "" : "s") without findings, data loss or a mapping model \(report.steps.count - detailed == 1 ? "is" : "are") not detailed.\n"
        }
        if let stagePlan, abridged?.stagePlan != false { out += "\n" + StagePlanRendering.markdown(stagePlan) }
        let deferral = DeferralLines.lines(report)
        if !deferral.isEmpty {
            out += "\n## Deferred lightweight migration\n\n" + deferral.map { "- \(md($0))" }.joined(separator: "\n") + "\n"
        }
        out += "\n## Findings\n\n"
        if report.diagnostics.isEmpty {
            out += "None.\n"
        } else {
            out += "| Severity | Code | Where | Finding |\n|---|---|---|---|\n"
            // Abridged, errors are listed first (then warnings, then notes, each in history order), so a cut drops notes first.
            let ordered = abridged == nil ? report.diagnostics
                : Severity.allCases.reversed().flatMap { severity in report.diagnostics.filter { $0.severity == severity } }
            let listed = abridged.map { ordered.prefix($0.findings) } ?? ordered[...]
            for diagnostic in listed {
                out += "| \(Reporters.severityLabel(diagnostic)) | \(diagnostic.code.rawValue) | \(md(diagnostic.location?.description ?? "")) | \(md(Reporters.findingText(diagnostic))) |\n"
            }
            if listed.count < report.diagnostics.count {
                let rest = ChainReport.Summary(diagnostics: Array(ordered.dropFirst(listed.count)))
                out += "\n\(report.diagnostics.count - listed.count) more findings not listed (\(Reporters.counts(rest))): `chainplan validate` lists every one.\n"
            }
        }
        let mappings = mappingModels(report)
        out += "\n## Mapping models used\n\n"
        out += mappings.isEmpty ? "None.\n" : mappings.map { "- \(md($0.step)): \(MarkupText.markdownCode($0.path))\(md($0.policies))" }.joined(separator: "\n") + "\n"
        return out
    }

    /// A step's SQLite table work, when deferral matters to it: it defers, the option would
    /// avoid a rebuild, or the option is ignored (a mapping model). Empty otherwise.
    static func deferralDetail(_ step: ChainReport.Step) -> [String] {
        guard let work = step.sqlite,
              work.optionIgnored || !work.avoidableRebuilds.isEmpty || work.tables.contains(where: { $0.work == .deferred }) else { return [] }
        return work.textLines(indent: "")
    }

    /// One self-contained HTML file: inline CSS and SVG, no scripts, no external requests; prints
    /// well. The layout is ``ReviewHTML``'s.
    /// The HTML review document; `since` makes its "New steps" those into versions after that one
    /// (a version of `report.versions`; the steps into the target otherwise).
    package static func html(_ report: ChainReport, diagramSVG: String?, stagePlan: StagePlan? = nil, since: String? = nil) -> Data {
        ReviewHTML.render(report, diagramSVG: diagramSVG, stagePlan: stagePlan, since: since)
    }

    // MARK: Shared content

    static func summaryLines(_ report: ChainReport) -> [(label: String, value: String)] {
        var lines: [(String, String)] = []
        if let model = report.model {
            lines.append(("Model", model.bundle))
            lines.append(("Current version", model.currentVersion ?? "none"))
        }
        lines.append(("Target", report.target ?? "none"))
        lines.append(("Versions", "\(report.versions.count)"))
        var steps = "\(report.steps.count)"
        let kinds = report.steps.map(kind).reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        if report.steps.contains(where: { $0.migration != nil }) {
            steps += " (" + kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
        }
        lines.append(("Steps", steps))
        lines.append(("Verdict", "\(report.summary.verdict): \(Reporters.counts(report.summary))"))
        return lines
    }


    /// How a step reads: a heavyweight step without its mapping model fails at runtime.
    static func kind(_ step: ChainReport.Step) -> String {
        switch step.migration {
        case nil: "unclassified"
        case .heavyweight? where step.mappingModel == nil: "needs a mapping model"
        case let kind?: kind.rawValue
        }
    }

    /// Where a start version's store ends up: the one vocabulary of the Markdown and HTML matrices.
    enum Verdict: Equatable {
        case target, migrates, migratesLosingData, fails
        case cannotReach(String)

        var words: String {
            switch self {
            case .target: "target"
            case .migrates: "migrates"
            case .migratesLosingData: "migrates, loses data"
            case .fails: "fails"
            case .cannotReach(let reason): "cannot reach the target: \(reason)"
            }
        }
    }

    struct Row {
        var start, path, kinds, direct: String
        var outcome: Verdict
        var verdict: String { outcome.words }
        /// Reaches the target with every store's data.
        var ok: Bool { outcome == .target || outcome == .migrates }
        var rowClass: String {
            switch outcome {
            case .target, .migrates: "ok"
            case .migratesLosingData: "data-loss"
            case .fails, .cannotReach: "bad"
            }
        }
    }

    /// What a path from a version holds, built from its successor's: linear in the chain, where
    /// walking every path would be quadratic.
    struct PathSummary {
        var kinds: [String: Int] = [:]
        var broken = false
        var losesData = false
        /// The last versions of the path, the target last (at most three).
        var tail: [String] = []
    }

    static func matrix(_ report: ChainReport) -> [Row] {
        let steps = Dictionary(report.steps.map { (StepKey(from: $0.from, to: $0.to), $0) }, uniquingKeysWith: { first, _ in first })
        let next = Dictionary(report.paths.map { ($0.start, $0.next) }, uniquingKeysWith: { first, _ in first })
        let failing = Set(report.diagnostics.filter { $0.severity == .error }.map(\.versions))
        var summaries: [String: PathSummary] = [:]
        for path in report.paths.filter({ $0.reachable }).sorted(by: { ($0.length ?? 0) < ($1.length ?? 0) }) {
            guard let following = next[path.start] ?? nil, path.length ?? 0 > 0, var summary = summaries[following],
                  let step = steps[StepKey(from: path.start, to: following)] else {
                summaries[path.start] = PathSummary(tail: [path.start])
                continue
            }
            let stepKind = kind(step)
            summary.kinds[stepKind, default: 0] += 1
            summary.broken = summary.broken || stepKind == "needs a mapping model" || failing.contains([step.from, step.to])
            summary.losesData = summary.losesData || step.losesData == true
            if summary.tail.count < 3 { summary.tail.insert(path.start, at: 0) }
            summaries[path.start] = summary
        }
        return report.paths.map { path in
            guard path.reachable else {
                let reason = path.problem.map { "\($0)\(path.stopsAt.map { " at \($0)" } ?? "")" } ?? "unreachable"
                return Row(start: path.start, path: "—", kinds: "—", direct: "—", outcome: .cannotReach(reason))
            }
            if path.length == 0 { return Row(start: path.start, path: "(target)", kinds: "—", direct: "—", outcome: .target) }
            let summary = summaries[path.start] ?? PathSummary(tail: [path.start])
            // The first versions (at most eight, or four when the path is longer), then the tail.
            let length = path.length ?? 0
            var head = [path.start]
            while head.count < (length + 1 > 8 ? 4 : length + 1), let following = next[head[head.count - 1]] ?? nil {
                head.append(following)
            }
            let shown = length + 1 > 8 ? (head + ["…"] + summary.tail).joined(separator: " → ") : head.joined(separator: " → ")
            let direct = path.direct.map { jump -> String in
                if jump.inferable == false { return "not inferable" }
                if !jump.lostComparedToChain.isEmpty { return "infers, loses \(jump.lostComparedToChain.joined(separator: ", "))" }
                return jump.migration.rawValue
            } ?? "—"
            let kinds = summary.kinds.sorted { $0.key < $1.key }.map { $0.value == 1 ? $0.key : "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            return Row(start: path.start, path: shown, kinds: kinds.isEmpty ? "unclassified" : kinds, direct: direct,
                       outcome: summary.broken ? .fails : summary.losesData ? .migratesLosingData : .migrates)
        }
    }

    static func mappingModels(_ report: ChainReport) -> [(step: String, path: String, policies: String)] {
        report.steps.compactMap { step in
            step.mappingModel.map { ("\(step.from) → \(step.to)", $0.path, $0.policies.isEmpty ? "" : " (\($0.policies.joined(separator: ", ")))") }
        }
    }

    /// The SVG element alone: no XML declaration or DOCTYPE inside an HTML body.
    static func inlineSVG(_ svg: String) -> String {
        guard let start = svg.range(of: "<svg") else { return "" }
        return String(svg[start.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let css = """
        body{font:15px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1d1d1f;max-width:1280px;margin:2em auto;padding:0 1em}
        h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}h3{font-size:1.05em;margin-bottom:.4em}
        code{font:13px ui-monospace,Menlo,Consolas,monospace;background:#f4f4f6;padding:0 .25em;border-radius:3px}
        table{border-collapse:collapse;width:100%;margin:.5em 0 1em}th,td{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top;overflow-wrap:anywhere}th{white-space:nowrap}td{min-width:4.5em}
        th{background:#f4f4f6}tr.bad td,tr.error td,tr.blocks-inference td{background:#fdecea}tr.warning td,tr.data-loss td{background:#fff6e0}
        .verdict{font-size:1.2em;font-weight:600;padding:.4em .7em;border-radius:6px;display:inline-block}
        .verdict.pass{background:#e6f4ea;color:#1e6b34}.verdict.fail{background:#fdecea;color:#a50e0e}
        dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{font-weight:600}dd{margin:0}
        .kind{font-weight:normal;padding:0 .4em;border-radius:4px;background:#eef}.kind.needs-a-mapping-model{background:#fdecea;color:#a50e0e}
        figure.diagram{margin:1em 0;overflow:auto;max-height:90vh;border:1px solid #ddd;border-radius:6px}figure.diagram svg{max-width:none;height:auto;display:block;margin:0 auto}
        nav.toc{background:#f8f8fa;border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:1em 0;display:inline-block}nav.toc ol{margin:.3em 0;padding-left:1.4em}
        ol.step-index{columns:3 18em;font-size:.9em;padding-left:2.5em}ol.step-index li{break-inside:avoid}
        details.step{border:1px solid #ddd;border-radius:6px;padding:.3em .7em;margin:.4em 0}details.step>summary{cursor:pointer;font-weight:600}details.step[open]>summary{margin-bottom:.4em}
        .mark{font-size:.8em;font-weight:600;padding:0 .4em;border-radius:4px}.mark.error{background:#fdecea;color:#a50e0e}.mark.warning{background:#fff6e0;color:#8a5a00}.mark.note{background:#eef;color:#445}.count{font-weight:normal;color:#666;font-size:.9em}table.findings td:nth-child(3){font-size:.85em;white-space:nowrap}table.findings td:nth-child(3) .place{display:inline-block;max-width:22em;overflow:hidden;text-overflow:ellipsis;vertical-align:bottom}
        footer{margin-top:3em;color:#777;font-size:.85em}
        @media print{body{margin:0;max-width:none;font-size:11pt;-webkit-print-color-adjust:exact;print-color-adjust:exact}details.step,tr{break-inside:avoid}nav.toc{display:none}h2{break-after:avoid}figure.diagram{break-inside:avoid}}
        """
}
