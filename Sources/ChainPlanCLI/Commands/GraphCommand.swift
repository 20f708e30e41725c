import ArgumentParser
import ChainPlanKit
import ChainPlanOutput
import Foundation

extension RenderFormat: ExpressibleByArgument {}

struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the migration chain (SVG on standard output by default).",
        discussion: """
        Steps are coloured by migration: grey dotted none, green lightweight, blue heavyweight \
        (mapping model named on the edge), red dashed needs a mapping model that is missing. \
        The target is drawn with a double outline, the current version filled; versions that \
        cannot reach the target are red, and versions and steps on a cycle orange.
        The format follows -o's extension (.svg, .png, .pdf, .dot or .gv, .json) unless --format \
        is given; SVG otherwise. --format dot needs no Graphviz; svg, png and pdf are laid out \
        in-process with libgvc.

        Examples:
          chainplan graph > chain.svg
          chainplan graph Chains/notas/chain.json --from Notas --direct -o notas.svg
          chainplan graph -o chain.png
          chainplan graph --format dot | dot -Tpng > chain.png
        """
    )

    @OptionGroup var input: InputOptions

    @Option(help: "Output format: svg, png, pdf, dot or json (the diagram's structure). Default: from -o's extension, else svg.")
    var format: RenderFormat?

    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "Draw only the path from this version (its versions, steps and direct jump).")
    var from: String?

    @Flag(help: "Add the direct jumps from start versions to the target that would fail or lose data.")
    var direct = false

    @Flag(help: "Show every version of very large histories (long lightweight runs are collapsed otherwise).")
    var expand = false

    /// --format, else -o's extension (as `report` does), else SVG. An -o extension that names no
    /// format (`chain.jpg`) is a usage error rather than SVG written under a misleading name.
    func resolvedFormat() throws -> RenderFormat {
        try Self.format(explicit: format, output: output)
    }

    static func format(explicit format: RenderFormat?, output: String?) throws -> RenderFormat {
        if let format { return format }
        guard let output else { return .svg }
        guard let known = Self.format(pathExtension: URL(fileURLWithPath: output).pathExtension) else {
            let names = RenderFormat.allCases.map { ".\($0.rawValue)" } + [".gv"]
            throw UsageError("cannot tell the format of '\(output)': its extension is not one of \(names.joined(separator: ", ")); use one, or give --format")
        }
        return known
    }

    /// The format an -o path extension names: SVG for none, nil for one that names no format.
    static func format(pathExtension: String) -> RenderFormat? {
        let lowered = pathExtension.lowercased()
        if lowered.isEmpty { return .svg }
        if lowered == "gv" { return .dot }
        return RenderFormat(rawValue: lowered)
    }

    @OptionGroup var color: ColorOptions

    func run() async throws {
        let format = try resolvedFormat()
        let report = try input.plan()
        if report.diagnostics.hasUnusableInput { throw UsageError(findings: report.diagnostics.filter { $0.code.unusableInput }) }
        if let from, !report.versions.contains(from) { throw UsageError(VersionHint.notInChain(from, versions: report.versions)) }
        let drawn = from.map { PathScope.restricted(report, toPathFrom: $0) } ?? report
        let diagram = Diagram(report: drawn, options: DiagramOptions(highlightFrom: from, includeDirectJumps: direct))
        var writerOptions = DOTWriter.Options()
        writerOptions.expand = expand
        let data: Data
        do {
            data = try diagram.rendered(as: format, writer: DOTWriter(options: writerOptions))
        } catch {
            throw UsageError("cannot render the diagram: \(error)")
        }
        try FileHandleOutput.write(data, to: output)
    }
}
