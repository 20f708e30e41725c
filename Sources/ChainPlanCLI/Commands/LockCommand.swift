import ArgumentParser
import ChainPlanKit
import Foundation

/// `chainplan lock`: record the shipped model versions so later edits to them are caught.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Write chain.lock: fingerprints of the shipped model versions.",
        discussion: """
            For each shipped version (every version except the target, or --versions), a fingerprint \
            of every field that matters to migration, per entity and property. Commit the file; \
            `chainplan validate` then reports CP401 when a locked version is edited (a store made by \
            the shipped version no longer matches it) and CP402 when one is deleted. Whitespace, \
            attribute order and Xcode tool versions do not change fingerprints. Run it again when a \
            new version ships.

            Examples:
              chainplan lock
              chainplan lock Chains/notas/chain.json --versions "Notas,Notas 2"
            """
    )

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The versions to lock, separated by commas (default: all but the target).", valueName: "names"))
    var versions: String?

    @OptionGroup var color: ColorOptions
    @OptionGroup var result: WrittenFileOptions

    func run() async throws {
        let requested = versions.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        let plan = ChainPlanner(options: input.planOptions()).lock(inputAt: try input.resolveSpec(), versions: requested,
                                                                   configuration: input.config.map { URL(fileURLWithPath: $0) })
        // A configuration that cannot be used stops the run, as in validate (CP130, exit 2).
        let configurationProblems = plan.report.diagnostics.filter { $0.code == .invalidConfiguration }
        if !configurationProblems.isEmpty {
            for diagnostic in configurationProblems {
                FileHandleOutput.standardError.write(TextReporter.line(for: diagnostic, color: false) + "\n")
            }
            throw ExitCode(2)
        }
        guard let lock = plan.lock else {
            for diagnostic in plan.report.diagnostics where diagnostic.code.rule.unusableInput {
                FileHandleOutput.standardError.write(TextReporter.line(for: diagnostic, color: false) + "\n")
            }
            throw UsageError("nothing to lock: the spec names no readable model bundle")
        }
        guard plan.missing.isEmpty else {
            throw UsageError("cannot lock \(plan.missing.map { "'\($0)'" }.joined(separator: ", ")): not a readable version of the bundle")
        }
        try FileHandleOutput.write(Data(lock.text.utf8), to: plan.file.path, announce: false)
        let display = DisplayPath.make(plan.file, relativeTo: DisplayPath.currentDirectory)
        result.wrote(display, command: "lock", line: "wrote \(display): \(lock.versions.count) version\(lock.versions.count == 1 ? "" : "s") locked",
                     details: ["versions": lock.versions.map(\.name)])
    }
}
