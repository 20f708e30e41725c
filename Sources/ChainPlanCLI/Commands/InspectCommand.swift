import ArgumentParser
import ChainPlanKit
import Foundation

/// `chainplan inspect BUNDLE`: what chainplan reads from an `.xcdatamodeld` bundle.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the versions, counts and findings of .xcdatamodeld bundles.",
        discussion: """
            Versions are listed in natural version order with their declared entity, attribute and \
            relationship counts and their inheritance (each subentity with its parent, and the abstract \
            entities). With --version, the entities of one version are listed in full: parent, root, \
            subentities, inherited properties (marked) and every attribute field that is set. \
            Several bundles may be given; with --format json they are then printed as an array. \
            Exit status: 0 ok, 1 error findings, 2 unusable bundle or usage error (the worst of all bundles).
            """
    )

    /// How the report is written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("One or more .xcdatamodeld bundles.", valueName: "bundle"))
    var bundles: [String]

    @Option(name: .customLong("version"), help: ArgumentHelp("List the entities of this version in full.", valueName: "name"))
    var versionName: String?

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("max-contents-bytes"), help: "Refuse model contents files larger than this many bytes.")
    var maxContentsBytes: Int = ModelContentsParser.defaultMaxBytes

    @OptionGroup var color: ColorOptions

    func validate() throws {
        guard !bundles.isEmpty else { throw ValidationError("name at least one .xcdatamodeld bundle") }
        if versionName != nil, bundles.count > 1 { throw ValidationError("--version needs a single bundle") }
    }

    func run() async throws {
        let reader = ModelBundleReader(maxContentsBytes: maxContentsBytes)
        var reports: [ModelInspection] = []
        for bundle in bundles {
            let url = URL(fileURLWithPath: bundle)
            let displayPath = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
            let result = reader.read(bundleAt: url, displayPath: displayPath)
            if let versionName, let readBundle = result.bundle, readBundle.version(named: versionName) == nil {
                FileHandleOutput.standardError.write(
                    "chainplan: error: " + VersionHint.notInBundle(versionName, versions: readBundle.versionNames) + "\n")
                throw ExitCode(2)
            }
            reports.append(ModelInspection(result: result, displayPath: displayPath, detailVersion: versionName))
        }
        switch format {
        case .json:
            // One bundle: its object, as before; several: an array of them, in the order given.
            try FileHandleOutput.write(reports.count == 1 ? reports[0].jsonData() : ModelInspection.jsonData(reports), to: output)
        case .text:
            try FileHandleOutput.write(Data(reports.map { $0.text() }.joined(separator: "\n").utf8), to: output)
        }
        let status = reports.map { ExitStatus.code(for: $0.diagnostics, strict: false) }.max() ?? 0
        if status != 0 { throw ExitCode(status) }
    }
}
