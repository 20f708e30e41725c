import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanPlanning
import Foundation

struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain the mapping Core Data would infer between two versions, change by change.",
        discussion: """
        SPEC is a chain spec with a model, or an .xcdatamodeld bundle. FROM and TO are any two \
        versions of the bundle, not only a step of the chain: use it to review a model change \
        before approving it, or to see why a direct jump fails. Findings follow .chainplan.yml \
        (or --config) like validate's; exit 1 when one is an error.

        Examples:
          chainplan explain Chains/notas/chain.json Notas "Notas 3"
          chainplan explain App.xcdatamodeld "Model 86" "Model 88" --format json
        """
    )

    @OptionGroup var pair: VersionPairArguments

    /// The formats `explain` writes; others are a usage error (exit 2) rather than silently text.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file.")
    var output: String?

    @OptionGroup var planning: PlanningOptions

    @Flag(name: .customLong("changes-only"), help: "Print only the verdict, the changes and the findings (no inferred entity mappings, no SQLite work; empty in JSON).")
    var changesOnly = false

    @OptionGroup var color: ColorOptions

    func run() async throws {
        let explanation = ChainPlanner(options: planning.planOptions()).explain(inputAt: URL(fileURLWithPath: pair.spec), from: pair.from, to: pair.to,
                                                                                configuration: planning.configURL)
        var report: ExplainReport
        switch explanation {
        case .failure(let failure):
            throw UsageError(findings: failure.diagnostics)
        case .success(let value):
            report = value
        }
        if changesOnly {
            report.entityMappings = []
            report.sqlite = nil
        }
        let data = format == .json ? JSONEnvelope.encode(report) : Data(report.renderText().utf8)
        try FileHandleOutput.write(data, to: output)
        // Findings at error severity (after the configuration) fail, as in validate: by default
        // CP201, a step that is not inferable and has no mapping model.
        try ExitStatus.finish(report.diagnostics, strict: false)
    }
}
