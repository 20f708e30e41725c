import ArgumentParser
import ChainPlanKit
import ChainPlanOutput
import Foundation

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a migration chain and report every finding.",
        discussion: """
        Exit status: 0 no error, 1 findings at or above the failing severity (errors; \
        warnings too with --strict), 2 unusable input or usage.

        Examples:
          chainplan validate chain.json
          chainplan validate --format json -o report.json
          chainplan validate Model.xcdatamodeld --strict
          chainplan validate --format sarif -o chainplan.sarif --format github
          chainplan validate --format junit -o junit.xml --format text
          chainplan validate --write-baseline chainplan-baseline.json
          chainplan validate --baseline chainplan-baseline.json --since "Model 116"
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FindingFilterOptions

    func run() async throws {
        var report = try input.plan(for: output)
        try filter.apply(to: &report)
        try output.emit(report, view: .diagnostics)
        try ExitStatus.finish(report.diagnostics, strict: output.strict)
    }
}

struct PathsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Show the path every start version takes to the target.",
        discussion: """
        Examples:
          chainplan paths
          chainplan paths chain.yaml --from "Model 2"
          chainplan paths --format json
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Show only the path from this version.")
    var from: String?

    func run() async throws {
        var report = try input.plan(for: output)
        if let from, !report.versions.isEmpty, !report.versions.contains(from) {
            throw UsageError(VersionHint.notInChain(from, versions: report.versions))
        }
        if let from, report.versions.contains(from) {
            let scoped = PathScope.scoped(report, toPathFrom: from)
            report = scoped.report
            if scoped.leftOut > 0 {
                FileHandleOutput.standardError.write("chainplan: \(scoped.leftOut) finding\(scoped.leftOut == 1 ? "" : "s") not on the path from '\(from)' not reported (--from)\n")
            }
        }
        try output.emit(report, view: .paths(from: from))
        try ExitStatus.finish(report.diagnostics, strict: output.strict)
    }
}
