import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanPlanning
import ChainPlanReaders
import ChainPlanStore
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
            With --store S.sqlite (and at most one bundle), inspects a Core Data SQLite store instead, read-only: \
            its model version (with a bundle), the deferred lightweight migration work it holds (_DEFERRED_ \
            columns per table, one finish task each) or a stale NSPersistentStoreDeferredLightweightMigrationOptionKey \
            (set with nothing left to finish); deferred columns that do not match the store's version are CP305. \
            Exit status: 0 ok, 1 error findings, 2 unusable bundle or store, or usage error (the worst of all bundles).
            """
    )

    /// How the report is written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("One or more .xcdatamodeld bundles, or SwiftData Swift sources (a .swift file or a folder).", valueName: "bundle"))
    var bundles: [String] = []

    @Option(help: ArgumentHelp("A SQLite store: its version (with a bundle) and deferred migration work.", valueName: "file"))
    var store: String?

    @Option(name: .customLong("version"), help: ArgumentHelp("List the entities of this version in full.", valueName: "name"))
    var versionName: String?

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("max-contents-bytes"), help: "Refuse model contents files larger than this many bytes.")
    var maxContentsBytes: Int = ModelContentsParser.defaultMaxBytes

    @OptionGroup var color: ColorOptions

    @OptionGroup var swift: SwiftConfigurationOptions

    func validate() throws {
        if store != nil {
            if bundles.count > 1 { throw ValidationError("--store takes at most one bundle") }
            if versionName != nil { throw ValidationError("--version does not apply to --store") }
            return
        }
        guard !bundles.isEmpty else { throw ValidationError("name at least one .xcdatamodeld bundle") }
        if versionName != nil, bundles.count > 1 { throw ValidationError("--version needs a single bundle") }
    }

    /// The bundle at `path`, or SwiftData sources read as one (`SwiftDataPipeline.bundle`).
    func read(_ path: String, reader: ModelBundleReader) -> ModelBundleReadResult {
        let url = URL(fileURLWithPath: path)
        let displayPath = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
        if SwiftSourceLocator.isSwiftSource(url) {
            return SwiftDataPipeline.bundle(sourcesAt: url, displayPath: displayPath, configuration: swift.configuration)
        }
        return reader.read(bundleAt: url, displayPath: displayPath)
    }

    func run() async throws {
        let reader = ModelBundleReader(maxContentsBytes: maxContentsBytes)
        if let store {
            if let output, let conflict = StoreFileGuard(storePath: store).conflict(withOutput: output) {
                throw UsageError("refusing to write '\(output)': it \(conflict) (store '\(store)'); inspect never writes to the store")
            }
            let bundle = bundles.first.flatMap { path in read(path, reader: reader).bundle }
            if let path = bundles.first, bundle == nil {
                throw UsageError("cannot read the model bundle '\(path)'")
            }
            let inspection = StoreInspection.inspect(storeAt: store, displayPath: DisplayPath.make(URL(fileURLWithPath: store), relativeTo: DisplayPath.currentDirectory),
                                                     bundle: bundle)
            try FileHandleOutput.write(format == .json ? inspection.jsonData() : Data(inspection.text().utf8), to: output)
            return try ExitStatus.finish(inspection.diagnostics, strict: false)
        }
        var reports: [ModelInspection] = []
        for bundle in bundles {
            let displayPath = DisplayPath.make(URL(fileURLWithPath: bundle), relativeTo: DisplayPath.currentDirectory)
            let result = read(bundle, reader: reader)
            if let versionName, let readBundle = result.bundle, readBundle.version(named: versionName) == nil {
                throw UsageError(VersionHint.notInBundle(versionName, versions: readBundle.versionNames))
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
        try ExitStatus.finish(reports.flatMap(\.diagnostics), strict: false)
    }
}
