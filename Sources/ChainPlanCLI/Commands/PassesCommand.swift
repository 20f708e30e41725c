import ArgumentParser
import ChainPlanKit
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
        under --max-memory-mb. Exit 1 when a finding is an error (an unmapped entity), 2 for \
        unusable input (an unknown version, a step that is not heavyweight, an unreadable store).

        Examples:
          chainplan passes Chains/events-two-passes/chain.json Events "Events 2"
          chainplan passes chain.json "Model 3" "Model 4" --store App.sqlite --max-memory-mb 200
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

    @Option(name: .customLong("max-memory-mb"), help: ArgumentHelp("Pack passes under this many MB of objects (needs --store to size them).", valueName: "N"))
    var maxMemoryMB: Int?

    @Option(help: ArgumentHelp("A SQLite store whose row counts size the passes (read from a private copy).", valueName: "file"))
    var store: String?

    @Flag(name: .customLong("allow-outside"), help: "Allow the spec's model and mapping paths to point outside the spec's folder.")
    var allowOutside = false

    @OptionGroup var color: ColorOptions

    func validate() throws {
        if let maxMemoryMB, maxMemoryMB <= 0 || maxMemoryMB > 1 << 30 { throw ValidationError("--max-memory-mb must be between 1 and \(1 << 30)") }
    }

    func run() async throws {
        var options = PlanOptions()
        options.allowOutsideSpecDirectory = allowOutside
        let result = ChainPlanner(options: options).passes(inputAt: URL(fileURLWithPath: pair.spec), from: pair.from, to: pair.to, storeAt: store,
                                                          maxMemoryBytes: maxMemoryMB.map { $0 << 20 })
        let report: PassReport
        switch result {
        case .failure(let failure):
            for diagnostic in failure.diagnostics { FileHandleOutput.standardError.write(TextReporter.line(for: diagnostic, color: false) + "\n") }
            throw ExitCode(2)
        case .success(let value):
            report = value
        }
        let data: Data
        switch format {
        case .text: data = Data(PassPlanText.render(report, spec: pair.spec).utf8)
        case .json: data = JSONReporter.encode(report)
        case .swift: data = Data(PassPlanSwift.render(report).utf8)
        }
        if let output {
            do { try data.write(to: URL(fileURLWithPath: output)) } catch {
                throw UsageError("cannot write '\(output)': \(error.localizedDescription)")
            }
        } else {
            FileHandleOutput.standardOutput.write(data)
        }
        try ExitStatus.finish(report.diagnostics, strict: false)
    }
}
