import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// Renders a stage plan as text, JSON or Markdown. Pure functions of the plan.
package enum StagePlanRendering {
    /// JSON: `{"stages": [...], "starts": [...], ...}` in migration order, keys sorted.
    package static func json(_ plan: StagePlan) -> Data {
        JSONEnvelope.encode(plan)
    }

    package static func text(_ plan: StagePlan) -> String {
        var out = "Staged migration plan for \(plan.modelName) (app model '\(plan.appModel)')\n"
        out += plan.checksumSource.map { "Checksums: \($0)\n" }
            ?? "Checksums: not known (pass --momd with the compiled model); versions merged by chainplan's hash comparison\n"
        out += "\nStages (\(plan.stages.count)):\n"
        for (index, stage) in plan.stages.enumerated() {
            out += "  \(index + 1). \(stage.kind.rawValue) \(stage.versions.map { "'\($0)'" }.joined(separator: stage.kind == .custom ? " → " : ", "))\n"
            if !stage.checksums.isEmpty { out += "     checksums: \(stage.checksums.joined(separator: ", "))\n" }
            out += "     \(stage.reason)\n"
            if stage.kind == .custom {
                out += "     handlers: \(stage.handlers ? "willMigrate/didMigrate do data work" : "none (forces stepping)")\(stage.mappingModel.map { "; mapping model '\($0)'" } ?? "")\n"
            }
        }
        if !plan.merged.isEmpty {
            out += "\nListed once: " + plan.merged.map { "'\($0.version)' as '\($0.listedAs)'" }.joined(separator: ", ") + "\n"
        }
        out += DecompositionRendering.text(plan)
        return out + startsAndChecks(plan, heading: "Per start")
    }

    /// Each start's simulation under `heading`, then the plan's §6.1 checks.
    package static func startsAndChecks(_ plan: StagePlan, heading: String) -> String {
        var out = "\n\(heading):\n" + plan.starts.map(startLine).joined()
        out += "\nChecks (reference §6.1): "
        out += plan.findings.isEmpty ? "all pass\n" : "\(plan.findings.count) finding(s)\n"
        for finding in plan.findings { out += "  " + TextReporter.line(for: finding, color: false) + "\n" }
        return out
    }

    /// One start's simulation, indented lines.
    package static func startLine(_ run: StageRun) -> String {
        var out = "  '\(run.version)': \(run.summary)\n"
        for jump in run.jumps {
            let stage = jump.stage.map { "stage \($0 + 1)" } ?? "plain automatic migration"
            out += "     jump '\(jump.from)' → '\(jump.to)' (\(stage)): \(jump.migration)\(jump.mappingModel.map { " by '\($0)'" } ?? "")"
            if !jump.lostComparedToSteps.isEmpty { out += ", drops \(jump.lostComparedToSteps.joined(separator: ", "))" }
            if let checks = jump.validation, !checks.isEmpty {
                out += ", could fail validation: fails (134110) on stores where " + checks.map(\.condition).joined(separator: ", or ")
            }
            out += "\n"
        }
        for handler in run.handlers { out += "     \(handler.handler.rawValue) of stage \(handler.stage + 1) at '\(handler.model)'\n" }
        if let error = run.error { out += "     \(outcome(error)): \"\(error.reason)\"\n" }
        return out
    }

    /// `error 134504`, or `crash: NSLightweightMigrationStage's initializer throws`.
    static func outcome(_ error: StageRun.ExpectedError) -> String {
        error.thrownBy.map { "crash: \($0) throws (an Objective-C exception, uncatchable in Swift)" } ?? "error \(error.code)"
    }

    /// How a markup language spells code, text and a line break inside a table cell.
    struct Markup {
        var code: (String) -> String
        var text: (String) -> String
        var lineBreak: String
    }

    /// The cells of the stage table (#, kind, versions, handlers, why) and of the start table
    /// (start, jumps, handlers, outcome), escaped for `markup`.
    static func cells(_ plan: StagePlan, _ markup: Markup) -> (stages: [[String]], starts: [[String]]) {
        let stages = plan.stages.enumerated().map { index, stage -> [String] in
            let versions = stage.versions.map(markup.code).joined(separator: stage.kind == .custom ? " → " : ", ")
            let handlers = stage.kind == .lightweight ? "—" : stage.handlers ? "data work" : "none"
            return [String(index + 1), stage.kind.rawValue, versions, handlers, markup.text(stage.reason)]
        }
        let starts = plan.starts.map { run -> [String] in
            let jumps = run.jumps.map { jump -> String in
                let risk = jump.validation?.isEmpty == false ? ", could fail validation" : ""
                return "\(markup.code(jump.from)) → \(markup.code(jump.to)) (\(markup.text(jump.migration + risk)))"
            }.joined(separator: markup.lineBreak)
            let handlers = run.handlers.map { "\($0.handler.rawValue) at \(markup.code($0.model))" }.joined(separator: markup.lineBreak)
            let outcome = run.error.map { "\(markup.text(Self.outcome($0))): \(markup.text($0.reason))" } ?? markup.text(run.summary)
            return [markup.code(run.version), jumps.isEmpty ? "—" : jumps, handlers.isEmpty ? "—" : handlers, outcome]
        }
        return (stages, starts)
    }

    /// An HTML section for the review report.
    package static func html(_ plan: StagePlan) -> String {
        let x = MarkupText.xml
        let (stages, starts) = cells(plan, Markup(code: { "<code>\(x($0))</code>" }, text: x, lineBreak: "<br/>"))
        var out = "<h2>Staged migration plan</h2>\n<p>App model <code>\(x(plan.appModel))</code>. "
        out += plan.checksumSource.map { "Checksums from <code>\(x($0))</code>.</p>\n" } ?? "Checksums not known (pass <code>--momd</code> to <code>chainplan stage</code>).</p>\n"
        out += "<table>\n<thead><tr><th>#</th><th>Kind</th><th>Versions</th><th>Handlers</th><th>Why</th></tr></thead>\n<tbody>\n"
        out += stages.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>\n" }.joined()
        out += "</tbody>\n</table>\n<table>\n<thead><tr><th>Start</th><th>Jumps</th><th>Handlers</th><th>Outcome</th></tr></thead>\n<tbody>\n"
        for (run, row) in zip(plan.starts, starts) {
            out += "<tr class=\"\(run.error == nil ? "ok" : "error")\">" + row.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
        }
        out += "</tbody>\n</table>\n<p>Checks (reference §6.1): " + (plan.findings.isEmpty ? "all pass.</p>\n" : "\(plan.findings.count) finding(s).</p>\n<ul>\n")
        if !plan.findings.isEmpty {
            out += plan.findings.map { "<li><code>\($0.code.rawValue)</code> \(x($0.message))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        }
        return out
    }

    package static func markdown(_ plan: StagePlan) -> String {
        let (stages, starts) = cells(plan, Markup(code: { MarkupText.markdownCode($0, inTable: true) }, text: MarkupText.markdown, lineBreak: "<br>"))
        var out = "## Staged migration plan\n\n"
        out += "App model: \(MarkupText.markdownCode(plan.appModel, inTable: true)). "
        out += plan.checksumSource.map { "Checksums from \(MarkupText.markdownCode($0, inTable: true)).\n\n" } ?? "Checksums not known (pass `--momd`).\n\n"
        out += "| # | Kind | Versions | Handlers | Why |\n|---|---|---|---|---|\n"
        out += stages.map { "| " + $0.joined(separator: " | ") + " |\n" }.joined()
        out += "\n| Start | Jumps | Handlers | Outcome |\n|---|---|---|---|\n"
        out += starts.map { "| " + $0.joined(separator: " | ") + " |\n" }.joined()
        out += DecompositionRendering.markdown(plan)
        out += "\nChecks (reference §6.1): " + (plan.findings.isEmpty ? "all pass.\n" : "\(plan.findings.count) finding(s).\n\n")
        for finding in plan.findings { out += "- \(finding.code.rawValue): \(MarkupText.markdown(finding.message))\n" }
        return out
    }
}
