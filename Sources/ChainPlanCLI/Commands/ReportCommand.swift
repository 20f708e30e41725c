import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import Foundation

/// `chainplan report`: the document a reviewer reads before a release.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the pre-release review document (Markdown, HTML or JSON).",
        discussion: """
            Summary and verdict, the diagram, where every start version goes (path, step kinds, \
            direct jump), every step's changes with the rule behind each, the findings, and the \
            mapping models used.

            HTML is one self-contained file (inline SVG and CSS, no scripts, no external requests) \
            that prints well. Markdown is GitHub-flavoured for pull-request comments; with -o, the \
            diagram is written next to it (review.md → review.svg) and linked. JSON is the same \
            versioned document as every other command. The format follows -o's extension \
            (.html, .md, .json) unless --format is given; Markdown on standard output otherwise.
            Exit status as for validate.

            Examples:
              chainplan report -o review.html
              chainplan report Chains/notas/chain.json -o review.md
              chainplan report --format json > review.json
              chainplan report --since "Model 116" -o review.html
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case md, html, json
    }

    @OptionGroup var input: InputOptions

    @Option(help: "Document format (default: from -o's extension, else md).")
    var format: Format?

    @Option(name: [.customShort("o"), .long], help: "Write the document to this file instead of standard output.")
    var output: String?

    @OptionGroup var gate: StrictOption

    @Option(help: ArgumentHelp(
        "HTML: lead with the steps into versions after this one (a pull request's new models) instead of the steps into the target. "
            + "To report only their findings, use 'validate --since'.", valueName: "version"))
    var since: String?

    var resolvedFormat: Format {
        if let format { return format }
        switch output.map({ URL(fileURLWithPath: $0).pathExtension.lowercased() }) {
        case "html"?, "htm"?: return .html
        case "json"?: return .json
        default: return .md
        }
    }

    @OptionGroup var color: ColorOptions

    func run() async throws {
        if since != nil, resolvedFormat != .html {
            throw UsageError("--since shapes the HTML report's new steps (-o review.html or --format html); for the findings since a version use 'chainplan validate --since'")
        }
        let report = try input.plan()
        if let since, !report.versions.isEmpty, !report.versions.contains(since) {
            throw UsageError(VersionHint.notInChain(since, versions: report.versions))
        }
        let stages = Self.stagePlan(report, input: input)
        switch resolvedFormat {
        case .json:
            try FileHandleOutput.write(JSONReporter.render(report), to: output)
        case .html:
            try FileHandleOutput.write(ReviewReporter.html(report, diagramSVG: Self.diagram(report), stagePlan: stages, since: since), to: output)
        case .md:
            var link: String?
            if let svg = Self.diagram(report) {
                if let output {
                    let svgURL = URL(fileURLWithPath: output).deletingPathExtension().appendingPathExtension("svg")
                    if Self.mayWriteDiagram(at: svgURL, beside: URL(fileURLWithPath: output)) {
                        try FileHandleOutput.write(Data(svg.utf8), to: svgURL.path)
                        link = svgURL.lastPathComponent
                    } else {
                        FileHandleOutput.standardError.write("chainplan: note: '\(svgURL.lastPathComponent)' exists and is not the diagram of an earlier "
                            + "report to '\(URL(fileURLWithPath: output).lastPathComponent)': it is left alone and the report has no diagram (name another -o)\n")
                    }
                } else {
                    FileHandleOutput.standardError.write(Self.noDiagramOnStandardOutput + "\n")
                }
            }
            try FileHandleOutput.write(ReviewReporter.markdown(report, diagramLink: link, stagePlan: stages), to: output)
        }
        try ExitStatus.finish(report.diagnostics, strict: gate.strict)
    }

    /// Reports never overwrite a file the user did not name: the diagram beside a Markdown report
    /// (review.md → review.svg) is written when no such file exists, or when it is the one an
    /// earlier report to the same -o wrote (that report links it).
    static func mayWriteDiagram(at svg: URL, beside document: URL) -> Bool {
        guard FileManager.default.fileExists(atPath: svg.path) else { return true }
        guard case .success(let earlier) = FileAccess.readRegularFile(at: document, maxBytes: 64 << 20) else { return false }
        let link = svg.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? svg.lastPathComponent
        return String(decoding: earlier, as: UTF8.self).contains("](\(link))")
    }

    /// Markdown links the diagram as a file beside the document, which standard output has not.
    static let noDiagramOnStandardOutput = "chainplan: note: the Markdown report has no diagram on standard output; "
        + "it is written beside the document only with -o (review.md → review.svg), and inline in HTML (-o review.html)"

    /// The diagram as SVG text, or nil when the input was unusable or Graphviz cannot lay it out
    /// (the document is still written; the reason goes to standard error).
    /// Chains longer than this get no stage plan in the report (`chainplan stage` still plans them).
    static let maxStagedVersions = 200

    /// The staged migration plan shown in Markdown and HTML, when the chain has a model and a
    /// target. SwiftData sources with a plan get none: the app's plan is its stage list, in
    /// SwiftData's terms (`chainplan stage` audits it, or shows the stages a plan without any
    /// needs; the report's findings hold the audit's).
    static func stagePlan(_ report: ChainReport, input: InputOptions) -> StagePlan? {
        guard report.model != nil, report.target != nil, !report.diagnostics.hasUnusableInput,
              report.versions.count <= maxStagedVersions, let spec = try? input.resolveSpec() else { return nil }
        if ChainPlanner(options: input.planOptions()).swiftDataPlan(inputAt: spec) != nil { return nil }
        // The same hints as `chainplan stage`: the spec's and `.chainplan.yml`'s `stages`.
        let configured = RuleConfiguration.governing(inputAt: spec, file: input.configURL).configuration
        return ChainPlanner(options: input.planOptions()).stagePlan(inputAt: spec, identities: { _ in nil }, computingIdentities: true,
                                                                    marked: configured?.customStages ?? []).plan
    }

    static func diagram(_ report: ChainReport) -> String? {
        guard !report.diagnostics.hasUnusableInput, !report.versions.isEmpty else { return nil }
        do {
            let data = try Diagram(report: report, options: DiagramOptions(includeDirectJumps: true)).rendered(as: .svg, writer: DOTWriter())
            return String(decoding: data, as: UTF8.self)
        } catch {
            FileHandleOutput.standardError.write("chainplan: warning: the report has no diagram: \(error)\n")
            return nil
        }
    }
}
