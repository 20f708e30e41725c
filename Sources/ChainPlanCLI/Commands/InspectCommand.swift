import ArgumentParser
import ChainPlanKit
import Foundation

/// `chainplan inspect BUNDLE`: what chainplan reads from an `.xcdatamodeld` bundle.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the versions, counts and findings of an .xcdatamodeld bundle.",
        discussion: """
            Versions are listed in natural version order with their declared entity, attribute and \
            relationship counts. With --version, the entities of one version are listed in full. \
            Exit status: 0 ok, 1 error findings, 2 unusable bundle or usage error.
            """
    )

    /// How the report is written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The .xcdatamodeld bundle.", valueName: "bundle"))
    var bundle: String

    @Option(name: .customLong("version"), help: ArgumentHelp("List the entities of this version in full.", valueName: "name"))
    var versionName: String?

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("max-contents-bytes"), help: "Refuse model contents files larger than this many bytes.")
    var maxContentsBytes: Int = ModelContentsParser.defaultMaxBytes

    func run() async throws {
        let url = URL(fileURLWithPath: bundle)
        let displayPath = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
        let result = ModelBundleReader(maxContentsBytes: maxContentsBytes).read(bundleAt: url, displayPath: displayPath)
        if let versionName, let readBundle = result.bundle, readBundle.version(named: versionName) == nil {
            FileHandleOutput.standardError.write(
                "chainplan: error: the bundle has no version '\(versionName)'; it has: "
                    + readBundle.versionNames.map { "'\($0)'" }.joined(separator: ", ") + "\n")
            throw ExitCode(2)
        }
        let report = ModelInspection(result: result, displayPath: displayPath, detailVersion: versionName)
        switch format {
        case .json: try FileHandleOutput.write(try report.jsonData(), to: output)
        case .text: try FileHandleOutput.write(Data(report.text().utf8), to: output)
        }
        let status = report.exitStatus
        if status != 0 { throw ExitCode(status) }
    }
}
