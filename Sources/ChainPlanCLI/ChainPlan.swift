import ArgumentParser
import ChainPlanKit

/// The `chainplan` root command.
public struct ChainPlan: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chainplan",
        abstract: "Plan and check Core Data migration chains.",
        version: ChainPlanVersion.string,
        subcommands: [ValidateCommand.self, PathsCommand.self, ExplainCommand.self, GraphCommand.self, InspectCommand.self, InitCommand.self]
    )

    public init() {}
}
