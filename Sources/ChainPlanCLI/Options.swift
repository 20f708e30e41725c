import ArgumentParser
import ChainPlanKit
import Foundation

extension OutputFormat: ExpressibleByArgument {}

/// The input every planning command takes.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A chain spec (.json, .yaml, .yml) or an .xcdatamodeld bundle. Default: chain.json, chain.yaml or chain.yml in the current directory.",
        valueName: "spec"))
    var spec: String?

    @Flag(name: .customLong("allow-outside"), help: "Allow the spec's model and mapping paths to point outside the spec's folder.")
    var allowOutside = false

    @Option(name: .customLong("max-spec-bytes"), help: "Refuse specs larger than this many bytes.")
    var maxSpecBytes: Int = 16 << 20

    func planOptions() -> PlanOptions {
        var options = PlanOptions()
        options.maxSpecBytes = maxSpecBytes
        options.allowOutsideSpecDirectory = allowOutside
        return options
    }

    /// The spec to use: the argument, or the single chain.{json,yaml,yml} in the current directory.
    func resolveSpec() throws -> URL {
        if let spec { return URL(fileURLWithPath: spec) }
        switch SpecDiscovery.find(in: DisplayPath.currentDirectory) {
        case .found(let url):
            return url
        case .none:
            throw UsageError("no spec given and no chain.json, chain.yaml or chain.yml in the current directory")
        case .several(let names):
            throw UsageError("no spec given and several candidates in the current directory (\(names.joined(separator: ", "))); name one")
        }
    }
}

/// Output options shared by reporting commands.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    @Flag(help: "Fail (exit 1) on warnings as well as errors.")
    var strict = false

    @Flag(name: .customLong("no-color"), help: "Never colour text output (NO_COLOR is also honoured).")
    var noColor = false

    /// Colour only on a terminal, never with NO_COLOR set or when writing to a file.
    var useColor: Bool {
        guard !noColor, output == nil, ProcessInfo.processInfo.environment["NO_COLOR"] == nil else { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    func write(_ data: Data) throws {
        try FileHandleOutput.write(data, to: output)
    }
}

/// A usage problem: printed as `chainplan: error: …` and exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Maps a report's findings to chainplan's exit status:
/// 2 unusable input, 1 findings at or above the failing severity, 0 otherwise.
enum ExitStatus {
    static func code(for diagnostics: [Diagnostic], strict: Bool) -> Int32 {
        if diagnostics.hasUnusableInput { return 2 }
        let failing: Severity = strict ? .warning : .error
        if let worst = diagnostics.maximumSeverity, worst >= failing { return 1 }
        return 0
    }

    static func finish(_ diagnostics: [Diagnostic], strict: Bool) throws {
        let code = code(for: diagnostics, strict: strict)
        if code != 0 { throw ExitCode(code) }
    }
}
