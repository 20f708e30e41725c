import ArgumentParser
import ChainPlanCore
import ChainPlanHashing
import ChainPlanOutput
import ChainPlanReaders
import Foundation

/// `chainplan textconv FILE`: one model document as readable text, for `git diff`.
struct TextconvCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "textconv",
        abstract: "Print one model version's contents as readable text, for git diff.",
        discussion: """
            Reads one <Version>.xcdatamodel/contents file (any file name: git hands a textconv \
            program a temporary copy) and prints the model one fact a line: the version checksum \
            and identifier, then each entity in name order with its version hash (as chainplan hash \
            prints it), parent and abstract flag, and under it its attributes (type as Xcode names \
            it, optional, default, transient, indexed, renaming identifier, …), relationships \
            (destination, to-one or to-many, inverse, delete rule, counts), fetched properties, \
            uniqueness constraints and indexes; then composite types, fetch requests and \
            configurations (marked when used with CloudKit). Diagram positions and Xcode's tool \
            versions are left out. With git, a diff of a model shows the changed facts instead of XML:

              .gitattributes:  **/*.xcdatamodel/contents diff=coredata
              git config diff.coredata.textconv "chainplan textconv"

            A model Xcode would refuse (two entities of one name, an unknown destination, a parent \
            cycle) is still printed, its findings as error lines, so git diff works on it.

            Examples:
              chainplan textconv "App/Model.xcdatamodeld/Model 2.xcdatamodel/contents"
              git diff App/Model.xcdatamodeld

            Exit status: 0 ok, 2 unusable input (missing, not a regular file, over \
            --max-contents-bytes, not a model document) or usage.
            """
    )

    /// How the model is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("A model version's contents file (of any name).", valueName: "file"))
    var file: String

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("max-contents-bytes"), help: "Refuse model contents files larger than this many bytes.")
    var maxContentsBytes: Int = ModelContentsParser.defaultMaxBytes

    @OptionGroup var color: ColorOptions

    func run() async throws {
        let report = try makeReport()
        try FileHandleOutput.write(format == .json ? report.jsonData() : Data(report.text().utf8), to: output)
    }

    /// The report of the model in `file`, or `UsageError` with the reader's CP118 findings when
    /// the file holds no model.
    func makeReport() throws -> TextconvReport {
        let url = URL(fileURLWithPath: file)
        let shown = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
        let parsed = ModelContentsParser(maxBytes: maxContentsBytes).parse(fileAt: url, displayPath: shown)
        guard let model = parsed.model else { throw UsageError(findings: parsed.diagnostics) }
        return TextconvReport(model: model, hashes: ModelHasher.hash(model, withProperties: false), findings: parsed.diagnostics)
    }
}
