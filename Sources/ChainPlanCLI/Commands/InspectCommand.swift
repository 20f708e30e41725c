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

    @Option(name: .customLong("max-contents-bytes"), help: "Refuse model contents files larger than this many bytes.")
    var maxContentsBytes: Int = ModelContentsParser.defaultMaxBytes

    func run() async throws {
        let url = URL(fileURLWithPath: bundle)
        let displayPath = Self.displayPath(for: url, asGiven: bundle)
        let result = ModelBundleReader(maxContentsBytes: maxContentsBytes).read(bundleAt: url, displayPath: displayPath)
        if let versionName, let readBundle = result.bundle, readBundle.version(named: versionName) == nil {
            FileHandleOutput.standardError.write(
                "chainplan: error: the bundle has no version '\(versionName)'; it has: "
                    + readBundle.versionNames.map { "'\($0)'" }.joined(separator: ", ") + "\n")
            throw ExitCode(2)
        }
        let report = ModelInspection(result: result, displayPath: displayPath, detailVersion: versionName)
        switch format {
        case .json: FileHandleOutput.standardOutput.write(try report.jsonData())
        case .text: FileHandleOutput.standardOutput.write(report.text())
        }
        let status = report.exitStatus
        if status != 0 { throw ExitCode(status) }
    }

    /// Relative to the current directory when the bundle lies below it, else as given.
    static func displayPath(for url: URL, asGiven given: String) -> String {
        let path = url.standardizedFileURL.path
        var base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL.path
        if !base.hasSuffix("/") { base += "/" }
        if path.hasPrefix(base), path.count > base.count { return String(path.dropFirst(base.count)) }
        var shown = given
        while shown.count > 1, shown.hasSuffix("/") { shown.removeLast() }
        return shown
    }
}
