import Foundation
import PackagePlugin

/// `swift package chainplan-validate [arguments]`: runs `chainplan validate` from the package's
/// folder with the arguments given (a spec, `--baseline`, `--format`, …), so a Mac user needs no
/// separate install. The first argument may name another command (`paths`, `report`, …).
@main
struct ChainPlanValidate: CommandPlugin {
    static let commands: Set<String> = ["validate", "paths", "explain", "graph", "report", "stage", "lock", "rules", "hash", "inspect", "dry-run", "init"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "chainplan")
        var arguments = arguments
        if arguments.first.map(Self.commands.contains) != true { arguments.insert("validate", at: 0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.url.path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: context.package.directoryURL.path)
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("chainplan \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
            throw ExitStatus(code: process.terminationStatus)
        }
    }

    struct ExitStatus: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "chainplan exited with status \(code)" }
    }
}
