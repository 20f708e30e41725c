import ArgumentParser
import ChainPlanKit
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

    /// The format a `graph` command line will most likely render, read from its words before
    /// they are parsed, so that Graphviz can load its plugins meanwhile (`.dot`, which needs
    /// none, for any other command, for help, or when unsure). A guess: a wrong one costs
    /// time, never output, because the command renders in the format it parses.
    static func likelyFormat(_ arguments: [String]) -> RenderFormat {
        guard arguments.first == "graph", !arguments.contains(where: { $0 == "-h" || $0 == "--help" }) else { return .dot }
        var explicit: RenderFormat?
        var output: String?
        for (index, word) in arguments.enumerated() {
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if word == "--format" { explicit = next.flatMap(RenderFormat.init(rawValue:)) ?? .dot }
            if word.hasPrefix("--format=") { explicit = RenderFormat(rawValue: String(word.dropFirst("--format=".count))) ?? .dot }
            if word == "-o" || word == "--output" { output = next }
            if word.hasPrefix("--output=") { output = String(word.dropFirst("--output=".count)) }
        }
        if let explicit { return explicit }
        guard let output else { return .svg }
        return format(pathExtension: pathExtensionGuess(output)) ?? .dot
    }

    /// `URL(fileURLWithPath: path).pathExtension`, read without Foundation's `URL` (its first use
    /// costs a third of a millisecond before Graphviz can start): the last component's text after
    /// its last dot, none for a hidden name or one with white space after the dot. Another reading
    /// of an unusual path costs only time.
    static func pathExtensionGuess(_ path: String) -> String {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let pathExtension = name[name.index(after: dot)...]
        return pathExtension.contains(where: \.isWhitespace) ? "" : String(pathExtension)
    }

    func run() async throws {
        let format = try resolvedFormat()
        // Graphviz loads its plugins on its own thread while the chain is read and planned.
        let preparation = GraphvizRenderer.prepare(format)
        defer { preparation.wait() }
        let report = try input.plan()
        if report.diagnostics.hasUnusableInput { throw UsageError(findings: report.diagnostics.filter { $0.code.rule.unusableInput }) }
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
