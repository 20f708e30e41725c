import ArgumentParser
import ChainPlanKit
import ChainPlanPlanning
import ChainPlanReaders
import Foundation

extension SpecMigrator: ExpressibleByArgument {}

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a chain spec from a model bundle, for you to review and commit.",
        discussion: """
        In a git work tree, the versions are listed in the order of the commits that first added \
        each one (following renames); otherwise, or when history cannot tell them apart, in \
        natural version order (Model, Model 2, …, Model 10; 2.9 before 2.10). The list ends at \
        the bundle's current version: versions after it are left out and named. That order is a \
        guess: check it against your release history before committing.

        --migrator says how the app migrates, and so what the spec analyses: corestore (a \
        CoreStore chain, one version at a time; the default), core-data (plain \
        NSPersistentContainer: every store straight to the current version) or staged \
        (NSStagedMigrationManager: one stage per consecutive pair). A YAML spec starts with a \
        comment saying which.

        Examples:
          chainplan init App/Model.xcdatamodeld
          chainplan init App/Model.xcdatamodeld -o chain.yaml
          chainplan init App/Model.xcdatamodeld --migrator core-data -o chain.yaml
        """
    )

    @Argument(help: "The .xcdatamodeld bundle.")
    var bundle: String

    @Option(name: [.customShort("o"), .long], help: "The spec to write (.json, .yaml or .yml).")
    var output: String = "chain.json"

    @Flag(help: "Overwrite an existing spec.")
    var force = false

    @Option(help: ArgumentHelp("How the app migrates: corestore, core-data or staged (see above).", valueName: "migrator"))
    var migrator: SpecMigrator?

    @OptionGroup var color: ColorOptions
    @OptionGroup var result: WrittenFileOptions

    func run() async throws {
        let bundleURL = URL(fileURLWithPath: bundle)
        let read = ModelBundleReader().read(bundleAt: bundleURL, displayPath: bundle)
        guard let model = read.bundle, !model.versions.isEmpty else { throw UsageError(findings: read.diagnostics) }
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        if FileManager.default.fileExists(atPath: outputURL.path), !force {
            throw UsageError("'\(output)' exists; pass --force to overwrite it")
        }
        let modelPath = SpecWriter.relativePath(of: bundleURL, from: outputURL.deletingLastPathComponent())
        let order = ProjectLoader(options: PlanOptions()).inferredOrder(of: model, at: bundleURL)
        let names = order.versions
        if !order.leftOut.isEmpty, result.format == .text {
            let left = order.leftOut.map { "'\($0)'" }.joined(separator: ", ")
            FileHandleOutput.standardError.write("left out, after the current version '\(names.last ?? "")': \(left)\n")
        }
        let lowered = output.lowercased()
        let isYAML = lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
        let text: String
        if let migrator {
            text = SpecWriter.spec(versions: names, modelPath: modelPath, migrator: migrator, yaml: isYAML)
        } else {
            text = isYAML ? SpecWriter.yaml(versions: names, modelPath: modelPath) : SpecWriter.json(versions: names, modelPath: modelPath)
        }
        do {
            try Data(text.utf8).write(to: outputURL)
        } catch {
            throw UsageError("cannot write '\(output)': \(error.localizedDescription)")
        }
        let details: [String: Any] = ["versions": names, "model": modelPath, "migrator": migrator?.rawValue ?? NSNull()]
        if migrator == .coreData {
            result.wrote(output, command: "init", line: "wrote \(output): \(SpecMigrator.coreData.explanation) Run 'chainplan validate \(output)'", details: details)
        } else {
            if let migrator, result.format == .text { FileHandleOutput.standardError.write("\(migrator.explanation)\n") }
            result.wrote(output, command: "init", line: "wrote \(output): \(names.count) versions, oldest first; review the order, then run 'chainplan validate \(output)'", details: details)
        }
    }
}
