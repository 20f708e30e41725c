import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import Foundation

/// `chainplan history`: when each model version entered the repository, and where it was current.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show, from git, the commit that added each model version and the tags at which it was current.",
        discussion: """
            Reads the repository with git (never the work tree or the index), following renames of \
            the bundle's folder and of versions: for each version, the commit that first added it \
            (`addedIn`: commit and committer date) and the release tags at which it was the bundle's \
            current version (`currentIn`, tags matching --tags, every tag by default). Those are the \
            versions real users can have. Oldest first; versions not committed yet come last.

            Examples:
              chainplan history
              chainplan history App/Model.xcdatamodeld --tags 'v*'
              chainplan history App/chain.json --format json

            Exit status: 0 ok, 2 unusable input (no git, not a work tree) or usage.
            """
    )

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("Only tags matching this glob (default: every tag).", valueName: "glob"))
    var tags: String?

    @OptionGroup var document: DocumentOutputOptions

    @OptionGroup var color: ColorOptions

    func run() async throws {
        let loader = ProjectLoader(options: input.planOptions())
        switch loader.history(inputAt: try input.resolveSpec(), tags: tags) {
        case .failure(let failure):
            throw UsageError(findings: failure.diagnostics, "cannot read the history: the input names no readable model bundle")
        case .success(let report):
            try document.write(text: report.text, json: report.json)
        }
    }
}
