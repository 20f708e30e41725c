import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import Foundation

/// `chainplan passes`: the multi-pass plan of one heavyweight step (NSMigrationManager, one
/// migrateStore call per pass), checked against Core Data's rules, and a driver that runs it.
struct PassesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passes",
        abstract: "Plan a heavyweight step as several migration passes that bound memory.",
        discussion: """
        A heavyweight migration holds every object of every entity mapping until migrateStore \
        returns; running the entity mappings in several passes (one migrateStore call each, into \
        one destination) bounds memory to the largest pass. The entity mappings are those of the \
        step's mapping model(s), or without one the ones you will need (one per destination \
        entity from its source). Targets of mandatory relationships come in the same or an \
        earlier pass, mutually dependent entities share one, and a relationship between passes \
        is set in the later pass by fetching by a unique key (else the passes are merged). With \
        --store, passes are sized by the store's rows (the dry run's memory estimate) and packed \
        under --memory-limit; a store that is not at the source version (identified by its version \
        hashes, as dry-run does) is CP708. The rule configuration applies as in validate \
        (.chainplan.yml beside the spec, or --config); its heavyweight-memory-mb is the default --memory-limit. Exit 1 when a finding is an error (an unmapped entity), 2 for \
        unusable input (an unknown version, a step that is not heavyweight, an unreadable store).

        Examples:
          chainplan passes Chains/events-two-passes/chain.json Events "Events 2"
          chainplan passes chain.json "Model 3" "Model 4" --store App.sqlite --memory-limit 200
          chainplan passes chain.json "Model 3" "Model 4" --format swift -o ModelPasses.swift
        """
    )

    @OptionGroup var pair: VersionPairArguments

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, swift
    }

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file.")
    var output: String?

    @Option(help: ArgumentHelp("A SQLite store whose row counts size the passes (read from a private copy).", valueName: "file"))
    var store: String?

    @OptionGroup var memory: MemoryBudgetOptions

    @OptionGroup var access: SpecAccessOptions

    @OptionGroup var color: ColorOptions

    func run() async throws {
        let planned = ChainPlanner(options: access.planOptions()).passes(inputAt: URL(fileURLWithPath: pair.spec), from: pair.from, to: pair.to,
                                                                         storeAt: store, maxMemoryBytes: memory.bytes, configuration: access.configURL)
        let report: PassReport
        switch planned {
        case .failure(let failure):
            throw UsageError(findings: failure.diagnostics)
        case .success(let value):
            report = value
        }
        let data: Data
        switch format {
        case .text: data = Data(PassPlanText.render(report, spec: pair.spec).utf8)
        case .json: data = JSONEnvelope.encode(report)
        case .swift: data = Data(PassPlanSwift.render(report).utf8)
        }
        try FileHandleOutput.write(data, to: output)
        try ExitStatus.finish(report.diagnostics, strict: false)
    }
}
