import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import Foundation

/// `chainplan prune --oldest V`: the advice for dropping the versions older than V.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Say what removing every version older than --oldest would do: stranded users, files, bytes and the spec edit.",
        discussion: """
            For a bundle grown to many versions: the versions whose path to the target runs \
            through --oldest would be removed, with the mapping models from them. The report names \
            the releases whose users would be stranded (the tags at which each removed version was \
            current, read from git), what happens to their stores (no model matches them: Core \
            Data's 134130), removed versions whose stores still open because a kept version has \
            their entity hashes, the files and bytes saved, and the chain to write. Nothing is \
            deleted or written.

            Examples:
              chainplan prune --oldest "Model 40"
              chainplan prune App/chain.json --oldest "Model 40" --tags 'v*' --format json

            Exit status: 0 ok, 2 unusable input or usage.
            """
    )

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The oldest version to keep.", valueName: "version"))
    var oldest: String

    @Option(help: ArgumentHelp("Only release tags matching this glob (default: every tag).", valueName: "glob"))
    var tags: String?

    @OptionGroup var document: DocumentOutputOptions

    @OptionGroup var color: ColorOptions

    func run() async throws {
        switch ProjectLoader(options: input.planOptions()).prune(inputAt: try input.resolveSpec(), oldest: oldest, tags: tags) {
        case .failure(let failure):
            throw UsageError(findings: failure.diagnostics, failure.message)
        case .success(let report):
            try document.write(text: report.text, json: report.json)
        }
    }
}
