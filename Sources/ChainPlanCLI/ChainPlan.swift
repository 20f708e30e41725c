import ArgumentParser
import ChainPlanCore
import ChainPlanKit

/// The `chainplan` root command.
public struct ChainPlan: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chainplan",
        abstract: "Plan and check Core Data migration chains.",
        discussion: """
        Reads a chain spec (CoreStore style, JSON or YAML) and the .xcdatamodeld it names, \
        classifies every step the way Core Data would (none, lightweight, heavyweight) and \
        reports every finding with its file:line:column.

        Examples:
          chainplan validate chain.json          check the chain; exit 1 on errors
          chainplan paths --from "Model 2"       the path a store at Model 2 takes
          chainplan explain chain.json "Model 3" "Model 4"
          chainplan graph > chain.svg            draw it
          chainplan init App/Model.xcdatamodeld  write a spec to review and commit

        Exit status: 0 clean, 1 findings at or above the failing severity, 2 unusable input \
        or usage. Shell completions: chainplan --generate-completion-script bash|zsh|fish
        """,
        version: ChainPlanVersion.string,
        subcommands: [ValidateCommand.self, PathsCommand.self, ExplainCommand.self, StageCommand.self, PassesCommand.self, GraphCommand.self, ReportCommand.self, InspectCommand.self, HashCommand.self, TextconvCommand.self, InitCommand.self, RulesCommand.self, LockCommand.self, HistoryCommand.self, PruneCommand.self, DryRunCommand.self, FixtureCommand.self]
    )

    public init() {}
}
