/// Writes a ``Diagram`` as Graphviz DOT text.
///
/// The output is deterministic: the same diagram and options give byte-identical text.
/// Nodes keep the diagram's order and edges theirs; nothing depends on hashing or time.
///
/// **Names are never DOT syntax.** Every version is declared under a generated identifier,
/// `n<i>` with `i` its position in the diagram once duplicates are merged (a collapsed run
/// leaves gaps), and its name appears only inside a quoted `label`, escaped so that
/// Graphviz draws it literally: `\` becomes `\\` (so `\N`, `\G`, `\E`, `\l`, `\r`, `\n` in a name
/// stay text), `"` becomes `\"`, `&` becomes `&amp;` (Graphviz decodes HTML entities in labels,
/// so `&lt;` in a name must not turn into `<`), a line feed becomes the `\n` line break and the
/// characters no output can carry are replaced as ``Diagram/displayText(_:)`` describes. No
/// name, note or title ever reaches an identifier, a comment, a URL, `href`, `id`, `class` or
/// `tooltip` attribute.
///
/// **Style.**
/// - Direction: left to right while the drawn graph has at most
///   ``Options/leftToRightLimit`` versions (a short chain reads like a sentence), top to bottom
///   beyond that (a long history scrolls down instead of becoming a very wide strip).
/// - Versions are rounded boxes. The target has a double outline; the bundle's current version
///   is filled light blue; an unreachable version has a red outline and a pink fill (both
///   fills as a gradient when it is also current); a version on a cycle has an orange outline
///   and is drawn as on a cycle even when it cannot reach the target either (the cycle is why);
///   an unknown (legacy) version has a dashed grey outline and grey text; a highlighted version
///   has a thick (3) outline. A note is drawn on a second line.
/// - Steps by kind: none grey dotted, lightweight green solid, heavyweight blue bold (its
///   label, e.g. the mapping model's name), failing red bold dashed, unknown grey dashed.
///   A direct jump is additionally dashed, has a hollow arrowhead and does not constrain the
///   ranking (`constraint=false`), so it curves around the chain. A step on a cycle is drawn
///   orange (keeping its kind's line style); a warning step (it drops data, or a warning is
///   about it) is amber and thick (`penwidth=2`), with its cause as label; a highlighted step
///   is thick (`penwidth=3`).
/// - The legend (when ``Diagram/showLegend``) is a cluster listing only the markers and step
///   kinds that occur in the diagram.
///
/// **Dense and large views.** Edge labels are dropped when the drawn graph has more than
/// 1.5 edges per version or more than 300 versions, except those of failing and warning steps
/// while there are at most ``maxCauseLabels`` of them (they say why): labels become extra layout nodes in
/// Graphviz's `dot` and are what makes dense graphs take minutes. The same views also get
/// `mclimit=0.1`, `nslimit=0.2` and `nslimit1=0.2`, which bound Graphviz's crossing
/// minimisation and network-simplex iterations, so large graphs lay out in bounded time. Labels of collapsed runs and of the legend
/// are always drawn.
///
/// **Collapsing.** When the diagram has more than ``Options/collapseAbove`` versions (40 by
/// default: a longer ribbon no longer fits a screen) and
/// ``Options/expand`` is false, every run of at least ``Options/minimumRun`` consecutive
/// intermediate versions that have exactly one step in and one step out, both plain
/// lightweight steps (not a direct jump, not on a cycle, not highlighted, no warning, no
/// label), and that are
/// neither target, current, unreachable, on a cycle, highlighted, unknown nor annotated, is
/// replaced by one double green edge labelled `… 38 lightweight steps …` (the number of steps
/// replaced, one more than the number of versions hidden).
package struct DOTWriter: Sendable {
    /// Layout and simplification settings.
    package struct Options: Sendable, Hashable {
        /// Which way the chain runs.
        package enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
            /// Left to right for small graphs, top to bottom for large ones.
            case automatic
            case leftToRight
            case topToBottom
        }

        package var direction: Direction
        /// With `.automatic`, the largest number of drawn versions laid out left to right.
        package var leftToRightLimit: Int
        /// Never collapse runs of lightweight steps.
        package var expand: Bool
        /// Collapse runs only in diagrams with more versions than this.
        package var collapseAbove: Int
        /// The fewest hidden versions a collapsed run may have.
        package var minimumRun: Int

        /// Creates options; the defaults are those documented on ``DOTWriter``.
        package init(
            direction: Direction = .automatic,
            leftToRightLimit: Int = 16,
            expand: Bool = false,
            collapseAbove: Int = 40,
            minimumRun: Int = 3
        ) {
            self.direction = direction
            self.leftToRightLimit = leftToRightLimit
            self.expand = expand
            self.collapseAbove = collapseAbove
            self.minimumRun = minimumRun
        }
    }

    package var options: Options

    /// Creates a writer with the given options.
    package init(options: Options = Options()) {
        self.options = options
    }

    /// The DOT text for a diagram.
    package func write(_ diagram: Diagram) -> String {
        var layout = DiagramLayout(diagram)
        if !options.expand && layout.nodes.count > options.collapseAbove {
            layout.collapseLightweightRuns(minimumRun: max(1, options.minimumRun))
        }
        return render(layout, diagram: diagram)
    }

    // MARK: - Palette

    enum Palette {
        static let grey = "#868e96"
        static let green = "#2f9e44"
        static let blue = "#1c7ed6"
        static let red = "#e03131"
        static let orange = "#f76707"
        static let amber = "#f59f00"
        static let currentFill = "#dbe4ff"
        static let unreachableFill = "#ffe3e3"
        static let font = "Helvetica,Arial,sans-serif"
    }

    static func color(of kind: Diagram.EdgeKind) -> String {
        switch kind {
        case .none, .unknown: Palette.grey
        case .lightweight: Palette.green
        case .heavyweight: Palette.blue
        case .failing: Palette.red
        }
    }

    static func styles(of kind: Diagram.EdgeKind) -> [String] {
        switch kind {
        case .none: ["dotted"]
        case .lightweight: ["solid"]
        case .heavyweight: ["bold"]
        case .failing: ["bold", "dashed"]
        case .unknown: ["dashed"]
        }
    }

    // MARK: - Output

    /// Whether the drawn graph is dense or large enough to drop labels and bound layout work.
    static func isDense(nodes: Int, edges: Int) -> Bool {
        edges * 2 > nodes * 3 || nodes > 300
    }

    /// Dense views keep the labels of failing and warning steps up to this many such steps.
    static let maxCauseLabels = 200

    private func render(_ layout: DiagramLayout, diagram: Diagram) -> String {
        let nodeCount = layout.drawnNodeCount
        let edgeCount = layout.edges.count
        let dense = Self.isDense(nodes: nodeCount, edges: edgeCount)
        let leftToRight: Bool
        switch options.direction {
        case .leftToRight: leftToRight = true
        case .topToBottom: leftToRight = false
        case .automatic: leftToRight = nodeCount <= options.leftToRightLimit
        }

        var out = "digraph chainplan {\n"
        var graphAttributes = [
            ("rankdir", leftToRight ? "LR" : "TB"),
            ("fontname", Self.quoted(Palette.font)),
            ("nodesep", "0.3"),
            ("ranksep", "0.4"),
        ]
        if dense {
            graphAttributes += [("mclimit", "0.1"), ("nslimit", "0.2"), ("nslimit1", "0.2")]
        }
        if let title = diagram.title {
            graphAttributes += [("label", Self.label(title)), ("labelloc", "t"), ("fontsize", "16")]
        }
        out += "  graph [\(Self.attributeList(graphAttributes))];\n"
        out += "  node [shape=box, style=rounded, fontname=\(Self.quoted(Palette.font)), fontsize=12];\n"
        out += "  edge [fontname=\(Self.quoted(Palette.font)), fontsize=10];\n"

        for (index, node) in layout.nodes.enumerated() where !layout.hidden[index] {
            let rest = Self.attributeList(Self.markingAttributes(node))
            out += "  n\(index) [label=\(Self.label(Self.nodeLabel(node)))\(rest.isEmpty ? "" : ", " + rest)];\n"
        }
        let causes = layout.edges.lazy.filter { $0.kind == .failing || $0.isWarning }.count
        for edge in layout.edges {
            let showLabel = !dense || ((edge.kind == .failing || edge.isWarning) && causes <= Self.maxCauseLabels)
            let attributes = Self.edgeAttributes(edge, showLabel: showLabel)
            out += "  n\(edge.from) -> n\(edge.to)\(attributes.isEmpty ? "" : " [\(Self.attributeList(attributes))]");\n"
        }
        if diagram.showLegend {
            out += Self.legend(for: layout, leftToRight: leftToRight)
        }
        out += "}\n"
        return out
    }

    /// The attributes of a node; the label comes first.
    static func nodeAttributes(_ node: DiagramLayout.Node) -> [(String, String)] {
        [("label", label(nodeLabel(node)))] + markingAttributes(node)
    }

    /// A node's text: its name, and its note on a second line.
    static func nodeLabel(_ node: DiagramLayout.Node) -> String {
        node.note.map { node.name + "\n" + $0 } ?? node.name
    }

    /// A node's attributes but its label: they follow from its flags alone (not its name or note).
    static func markingAttributes(_ node: DiagramLayout.Node) -> [(String, String)] {
        var attributes: [(String, String)] = []
        // A version on a cycle is unreachable because of the cycle: it is drawn as on a cycle.
        let unreachable = node.isUnreachable && !node.inCycle
        var styles = ["rounded"]
        if node.isUnknown { styles.append("dashed") }
        if node.isCurrentVersion || unreachable { styles.append("filled") }
        if styles.count > 1 { attributes.append(("style", quoted(styles.joined(separator: ",")))) }
        if node.isTarget { attributes.append(("peripheries", "2")) }
        if node.isHighlighted {
            attributes.append(("penwidth", "3"))
        } else if node.isTarget {
            attributes.append(("penwidth", "2"))
        }
        if node.inCycle {
            attributes.append(("color", quoted(Palette.orange)))
        } else if unreachable {
            attributes.append(("color", quoted(Palette.red)))
        } else if node.isUnknown {
            attributes.append(("color", quoted(Palette.grey)))
        }
        if unreachable && node.isCurrentVersion {
            attributes.append(("fillcolor", quoted("\(Palette.unreachableFill):\(Palette.currentFill)")))
        } else if unreachable {
            attributes.append(("fillcolor", quoted(Palette.unreachableFill)))
        } else if node.isCurrentVersion {
            attributes.append(("fillcolor", quoted(Palette.currentFill)))
        }
        if node.isUnknown { attributes.append(("fontcolor", quoted(Palette.grey))) }
        return attributes
    }

    static func edgeAttributes(_ edge: DiagramLayout.Edge, showLabel: Bool) -> [(String, String)] {
        var attributes: [(String, String)] = []
        if let steps = edge.collapsedSteps {
            attributes.append(("color", quoted("\(Palette.green):\(Palette.green)")))
            attributes.append(("label", label("… \(steps) lightweight steps …")))
            attributes.append(("fontcolor", quoted(Palette.green)))
            return attributes
        }
        let color = edge.inCycle ? Palette.orange : edge.isWarning ? Palette.amber : color(of: edge.kind)
        var styles = styles(of: edge.kind)
        if edge.isDirectJump && !styles.contains("dashed") && !styles.contains("dotted") {
            styles.removeAll { $0 == "solid" }
            styles.append("dashed")
        }
        attributes.append(("color", quoted(color)))
        attributes.append(("style", quoted(styles.joined(separator: ","))))
        if edge.isHighlighted {
            attributes.append(("penwidth", "3"))
        } else if edge.isWarning {
            attributes.append(("penwidth", "2"))
        }
        if edge.isDirectJump {
            attributes.append(("constraint", "false"))
            attributes.append(("arrowhead", "empty"))
        }
        if showLabel, let text = edge.label, !text.isEmpty {
            attributes.append(("label", label(text)))
            attributes.append(("fontcolor", quoted(color)))
        }
        return attributes
    }

    // MARK: - Legend

    private static func legend(for layout: DiagramLayout, leftToRight: Bool) -> String {
        let drawn = layout.nodes.indices.filter { !layout.hidden[$0] }.map { layout.nodes[$0] }
        // Each sample is drawn with the very attributes of the marker it explains.
        let nodeEntries: [(DiagramLayout.Node, Bool)] = [
            (.init(name: "target", isTarget: true), drawn.contains { $0.isTarget }),
            (.init(name: "current version", isCurrentVersion: true), drawn.contains { $0.isCurrentVersion }),
            (.init(name: "unreachable", isUnreachable: true), drawn.contains { $0.isUnreachable && !$0.inCycle }),
            (.init(name: "on a cycle", inCycle: true), drawn.contains { $0.inCycle }),
            (.init(name: "unknown version", isUnknown: true), drawn.contains { $0.isUnknown }),
            (.init(name: "highlighted", isHighlighted: true), drawn.contains { $0.isHighlighted }),
        ]
        let edges = layout.edges
        func plain(_ kind: Diagram.EdgeKind) -> DiagramLayout.Edge {
            DiagramLayout.Edge(from: 0, to: 0, kind: kind)
        }
        var jump = plain(.lightweight)
        jump.isDirectJump = true
        var cycle = plain(.lightweight)
        cycle.inCycle = true
        var highlighted = plain(.lightweight)
        highlighted.isHighlighted = true
        var warning = plain(.lightweight)
        warning.isWarning = true
        var collapsed = plain(.lightweight)
        collapsed.collapsedSteps = 0
        let edgeEntries: [(String, DiagramLayout.Edge, Bool)] = [
            ("no change", plain(.none), edges.contains { $0.collapsedSteps == nil && $0.kind == .none }),
            ("lightweight", plain(.lightweight), edges.contains { $0.collapsedSteps == nil && $0.kind == .lightweight }),
            ("heavyweight (mapping model)", plain(.heavyweight), edges.contains { $0.collapsedSteps == nil && $0.kind == .heavyweight }),
            ("needs a mapping model", plain(.failing), edges.contains { $0.collapsedSteps == nil && $0.kind == .failing }),
            ("not classified", plain(.unknown), edges.contains { $0.collapsedSteps == nil && $0.kind == .unknown }),
            ("direct jump", jump, edges.contains { $0.isDirectJump }),
            ("on a cycle", cycle, edges.contains { $0.inCycle }),
            ("highlighted", highlighted, edges.contains { $0.isHighlighted }),
            ("collapsed lightweight run", collapsed, edges.contains { $0.collapsedSteps != nil }),
            ("warning (drops data, or could fail)", warning, edges.contains { $0.isWarning && !$0.inCycle }),
        ]

        // Left to right: node samples and the tails of the edge samples share the first rank,
        // the heads the second, so sample edges run across like the chain; invisible edges
        // inside each rank keep the listed order (Graphviz orders such a rank bottom-up).
        // Top to bottom: each sample edge is flat (both ends in one rank) and an invisible
        // chain stacks the entries in a column.
        var column: [String] = []
        var firstRank: [String] = []
        var secondRank: [String] = []
        var out = "  subgraph cluster_legend {\n"
        out += "    graph [label=\"Legend\", fontsize=12, style=\"rounded,dashed\", color=\(quoted(Palette.grey))];\n"
        for (index, entry) in nodeEntries.enumerated() where entry.1 {
            out += "    legend_n\(index) [\(attributeList(nodeAttributes(entry.0)))];\n"
            column.append("legend_n\(index)")
            firstRank.append("legend_n\(index)")
        }
        for (index, entry) in edgeEntries.enumerated() where entry.2 {
            let tail = "legend_e\(index)a"
            let head = "legend_e\(index)b"
            out += "    \(tail) [shape=point, style=solid, width=0.05, label=\"\"];\n"
            out += "    \(head) [shape=point, style=solid, width=0.05, label=\"\"];\n"
            var attributes = edgeAttributes(entry.1, showLabel: false)
            attributes.removeAll { $0.0 == "label" || $0.0 == "fontcolor" || $0.0 == "constraint" }
            attributes.append(("label", label(entry.0)))
            out += "    \(tail) -> \(head) [\(attributeList(attributes))];\n"
            if !leftToRight { out += "    { rank=same; \(tail); \(head); }\n" }
            column.append(tail)
            firstRank.append(tail)
            secondRank.append(head)
        }
        let chains = leftToRight ? [firstRank.reversed(), secondRank.reversed()] : [column]
        if leftToRight {
            for rank in [firstRank, secondRank] where !rank.isEmpty {
                out += "    { rank=same; \(rank.joined(separator: "; ")); }\n"
            }
        }
        for chain in chains where chain.count > 1 {
            out += "    \(chain.joined(separator: " -> ")) [style=invis];\n"
        }
        out += "  }\n"
        return out
    }

    // MARK: - Escaping

    /// A DOT quoted string that Graphviz draws as exactly `text` in a label.
    ///
    /// See the type's discussion for the rules.
    package static func label(_ text: String) -> String {
        // Printable ASCII without `\\`, `"` or `&` (most version names) is written as it is:
        // `displayText` changes no printable ASCII character.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "&") }) {
            return "\"" + text + "\""
        }
        return escapedLabel(text)
    }

    /// ``label(_:)`` character by character, for any text (the tests compare the two).
    static func escapedLabel(_ text: String) -> String {
        var out = "\""
        for scalar in Diagram.displayText(text).unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "&": out += "&amp;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// A DOT quoted string for a fixed, trusted value (colours, style lists, font names).
    static func quoted(_ value: String) -> String {
        "\"" + value + "\""
    }

    static func attributeList(_ attributes: [(String, String)]) -> String {
        attributes.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
    }
}
