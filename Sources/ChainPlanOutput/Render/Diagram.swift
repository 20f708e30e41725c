import ChainPlanCore
/// A migration history to draw: versions as nodes, migration steps as edges.
///
/// `Diagram` is the only input of the Render stage. It is a plain value, independent of how
/// the chain was planned: the caller maps its own report onto it. Version names are kept
/// verbatim and treated as hostile text everywhere (see ``Diagram/displayText(_:)``).
///
/// Nodes are drawn in the order given (chain order); edges in the order given. Edges that
/// name a version missing from `nodes` still draw: the missing version is added after the
/// given nodes, marked unknown. A version listed twice is drawn once, with the flags of
/// both entries combined and the first note kept.
package struct Diagram: Sendable, Hashable, Codable {
    /// One model version.
    package struct Node: Sendable, Hashable, Codable, Identifiable {
        /// The version name, verbatim (any characters, any length).
        package var id: String
        /// The version the chain migrates to.
        package var isTarget: Bool
        /// The bundle's current version (`.xccurrentversion`).
        package var isCurrentVersion: Bool
        /// No path leads from this version to the target.
        package var isUnreachable: Bool
        /// The version lies on a cycle of the version graph.
        package var inCycle: Bool
        /// The version lies on the highlighted path (e.g. the planned chain).
        package var isHighlighted: Bool
        /// Not one of the bundle's model versions: a legacy or unidentified version, e.g. a
        /// store whose model matches none of the versions.
        package var isUnknown: Bool
        /// A short remark drawn under the name, e.g. `"store"`; nil for none.
        package var note: String?

        /// Creates a node; every flag defaults to false.
        package init(
            id: String,
            isTarget: Bool = false,
            isCurrentVersion: Bool = false,
            isUnreachable: Bool = false,
            inCycle: Bool = false,
            isHighlighted: Bool = false,
            isUnknown: Bool = false,
            note: String? = nil
        ) {
            self.id = id
            self.isTarget = isTarget
            self.isCurrentVersion = isCurrentVersion
            self.isUnreachable = isUnreachable
            self.inCycle = inCycle
            self.isHighlighted = isHighlighted
            self.isUnknown = isUnknown
            self.note = note
        }
    }

    /// How a migration step is classified.
    package enum EdgeKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The two models are identical for Core Data: nothing to migrate.
        case none
        /// Core Data can infer the mapping (lightweight migration).
        case lightweight
        /// A custom mapping model performs the step.
        case heavyweight
        /// The step needs a mapping model and none was found.
        case failing
        /// The step was not classified (e.g. a model could not be read).
        case unknown
    }

    /// One migration step, from one version to another.
    package struct Edge: Sendable, Hashable, Codable {
        /// The source version name (a `Node.id`).
        package var from: String
        /// The destination version name (a `Node.id`).
        package var to: String
        package var kind: EdgeKind
        /// A step that skips versions of the chain (a direct jump, e.g. via a mapping model
        /// from an old version straight to a newer one). Drawn dashed, outside the ranking.
        package var isDirectJump: Bool
        /// The step lies on a cycle.
        package var inCycle: Bool
        /// The step lies on the highlighted path.
        package var isHighlighted: Bool
        /// Text on the edge, e.g. the mapping model's name or `"Δ3"`; nil for none. Dense
        /// views drop edge labels (see ``DOTWriter``), except on failing and warning steps.
        package var label: String?
        /// The step has a warning: it drops data, or a finding at warning severity is about it.
        /// Drawn amber and thick, and never folded into a collapsed run.
        package var isWarning: Bool

        /// Creates an edge; every flag defaults to false.
        package init(
            from: String,
            to: String,
            kind: EdgeKind,
            isDirectJump: Bool = false,
            inCycle: Bool = false,
            isHighlighted: Bool = false,
            label: String? = nil,
            isWarning: Bool = false
        ) {
            self.from = from
            self.to = to
            self.kind = kind
            self.isDirectJump = isDirectJump
            self.inCycle = inCycle
            self.isHighlighted = isHighlighted
            self.label = label
            self.isWarning = isWarning
        }
    }

    /// A caption drawn above the graph, e.g. the bundle name; nil for none.
    package var title: String?
    /// The versions, in chain order.
    package var nodes: [Node]
    /// The steps, in a meaningful order (chain order first).
    package var edges: [Edge]
    /// Draw a legend explaining the colours and styles in use.
    package var showLegend: Bool

    /// Creates a diagram.
    package init(title: String? = nil, nodes: [Node], edges: [Edge], showLegend: Bool = false) {
        self.title = title
        self.nodes = nodes
        self.edges = edges
        self.showLegend = showLegend
    }
}

extension Diagram {
    /// The text drawn for a name: the name itself, except for characters no output can carry.
    ///
    /// XML (hence SVG) cannot contain most control characters, and DOT text is passed to
    /// Graphviz as a C string, so a NUL would cut it. Each C0 control character other than
    /// line feed becomes its Unicode "control picture" (U+0000 → `␀` U+2400, U+000D → `␍`
    /// U+240D, tab → `␉`), DEL becomes `␡` (U+2421) and the noncharacters U+FFFE and U+FFFF
    /// become `�` (U+FFFD). Bidirectional controls (marks, embeddings, overrides, isolates)
    /// are drawn as visible `\u{202E}` text, as in every report. A line feed starts a new line.
    /// Everything else — quotes, backslashes, markup, any script — is drawn exactly as given.
    package static func displayText(_ name: String) -> String {
        var needsChange = false
        for scalar in name.unicodeScalars where replacement(for: scalar) != nil || MarkupText.isBidiControl(scalar) {
            needsChange = true
            break
        }
        guard needsChange else { return name }
        var result = ""
        for scalar in name.unicodeScalars {
            // Bidirectional controls would reorder the label: drawn as visible `\u{202E}` text.
            if MarkupText.isBidiControl(scalar) {
                result += MarkupText.visible(scalar)
            } else {
                result.unicodeScalars.append(replacement(for: scalar) ?? scalar)
            }
        }
        return result
    }

    /// The visible stand-in for a character that cannot be drawn, or nil if it draws as is.
    static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x0A:
            return nil
        case 0x00...0x1F:
            return Unicode.Scalar(0x2400 + scalar.value)
        case 0x7F:
            return Unicode.Scalar(0x2421 as UInt32)
        case 0xFFFE, 0xFFFF:
            return Unicode.Scalar(0xFFFD as UInt32)
        default:
            return nil
        }
    }
}
