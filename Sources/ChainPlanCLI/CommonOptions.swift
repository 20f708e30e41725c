import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import Foundation

/// `--no-color`, accepted by every command (issue 19 §4) so scripts and CI can pass it blindly.
/// Commands that never colour accept it and change nothing.
struct ColorOptions: ParsableArguments {
    @Flag(name: .customLong("no-color"), help: "Never colour text output (NO_COLOR is also honoured).")
    var noColor = false
}

/// `--strict`, for the commands that gate on their findings (validate, dry-run, report): warnings
/// fail the run (exit 1) as errors do.
struct StrictOption: ParsableArguments {
    @Flag(help: "Fail (exit 1) on warnings as well as errors.")
    var strict = false
}

/// `--format text|json` for commands that write a file (init, lock, fixture): text is the
/// `wrote …` line on standard error; json is one document on standard output.
struct WrittenFileOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "What to print about the file written: text (a line on standard error) or json (a document on standard output).")
    var format: Format = .text

    /// Prints `line` (text) or `{"schemaVersion": 1, "tool": …, "command": …, "wrote": …, …details}` (json).
    func wrote(_ path: String, command: String, line: String, details: [String: Any] = [:]) {
        switch format {
        case .text:
            FileHandleOutput.standardError.write(line + "\n")
        case .json:
            var document = details
            JSONEnvelope.add(to: &document)
            document["command"] = command
            document["wrote"] = path
            let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            FileHandleOutput.standardOutput.write(data + Data("\n".utf8))
        }
    }
}
