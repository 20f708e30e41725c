import ArgumentParser
import ChainPlanKit
import Foundation

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a chain spec from a model bundle, for you to review and commit.",
        discussion: """
        The versions are listed in natural version order (Model, Model 2, …, Model 10; 2.9 before \
        2.10). That order is a guess: check it against your release history before committing.

        Examples:
          chainplan init App/Model.xcdatamodeld
          chainplan init App/Model.xcdatamodeld -o chain.yaml
        """
    )

    @Argument(help: "The .xcdatamodeld bundle.")
    var bundle: String

    @Option(name: [.customShort("o"), .long], help: "The spec to write (.json, .yaml or .yml).")
    var output: String = "chain.json"

    @Flag(help: "Overwrite an existing spec.")
    var force = false

    func run() async throws {
        let bundleURL = URL(fileURLWithPath: bundle)
        let read = ModelBundleReader().read(bundleAt: bundleURL, displayPath: bundle)
        guard let model = read.bundle, !model.versions.isEmpty else {
            for diagnostic in read.diagnostics { FileHandleOutput.standardError.write(TextReporter.line(for: diagnostic, color: false) + "\n") }
            throw ExitCode(2)
        }
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        if FileManager.default.fileExists(atPath: outputURL.path), !force {
            throw UsageError("'\(output)' exists; pass --force to overwrite it")
        }
        let modelPath = SpecWriter.relativePath(of: bundleURL, from: outputURL.deletingLastPathComponent())
        let names = model.versionNames
        let lowered = output.lowercased()
        let text = lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
            ? SpecWriter.yaml(versions: names, modelPath: modelPath)
            : SpecWriter.json(versions: names, modelPath: modelPath)
        do {
            try Data(text.utf8).write(to: outputURL)
        } catch {
            throw UsageError("cannot write '\(output)': \(error.localizedDescription)")
        }
        FileHandleOutput.standardError.write("wrote \(output): \(names.count) versions, oldest first; review the order, then run 'chainplan validate \(output)'\n")
    }
}
