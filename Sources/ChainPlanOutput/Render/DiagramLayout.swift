/// A diagram prepared for drawing: versions numbered, duplicates merged, missing versions
/// added, and (optionally) long lightweight runs collapsed.
///
/// Internal to the Render stage. Every operation is linear in the size of the diagram and
/// iterative (no recursion), whatever the input.
struct DiagramLayout: Sendable {
    struct Node: Sendable, Hashable {
        var name: String
        var isTarget = false
        var isCurrentVersion = false
        var isUnreachable = false
        var inCycle = false
        var isHighlighted = false
        var isUnknown = false
        var note: String?

        /// Whether anything marks this version as worth showing on its own.
        var isMarked: Bool {
            isTarget || isCurrentVersion || isUnreachable || inCycle || isHighlighted || isUnknown
                || note != nil
        }
    }

    struct Edge: Sendable, Hashable {
        var from: Int
        var to: Int
        var kind: Diagram.EdgeKind
        var isDirectJump = false
        var inCycle = false
        var isHighlighted = false
        var label: String?
        var isWarning = false
        /// For a collapsed run, the number of lightweight steps it stands for.
        var collapsedSteps: Int?

        /// A lightweight step with nothing else to show.
        var isPlainLightweight: Bool {
            kind == .lightweight && !isDirectJump && !inCycle && !isHighlighted && !isWarning && label == nil && collapsedSteps == nil
        }
    }

    /// Every version, indexed by its DOT identifier number (`n<index>`).
    var nodes: [Node]
    /// Versions folded into a collapsed run are not drawn.
    var hidden: [Bool]
    var edges: [Edge]

    var drawnNodeCount: Int { hidden.lazy.filter { !$0 }.count }

    init(_ diagram: Diagram) {
        var nodes: [Node] = []
        var index: [String: Int] = [:]
        nodes.reserveCapacity(diagram.nodes.count)
        for node in diagram.nodes {
            if let existing = index[node.id] {
                nodes[existing].isTarget = nodes[existing].isTarget || node.isTarget
                nodes[existing].isCurrentVersion = nodes[existing].isCurrentVersion || node.isCurrentVersion
                nodes[existing].isUnreachable = nodes[existing].isUnreachable || node.isUnreachable
                nodes[existing].inCycle = nodes[existing].inCycle || node.inCycle
                nodes[existing].isHighlighted = nodes[existing].isHighlighted || node.isHighlighted
                nodes[existing].isUnknown = nodes[existing].isUnknown || node.isUnknown
                if nodes[existing].note == nil { nodes[existing].note = node.note }
                continue
            }
            index[node.id] = nodes.count
            nodes.append(Node(
                name: node.id,
                isTarget: node.isTarget,
                isCurrentVersion: node.isCurrentVersion,
                isUnreachable: node.isUnreachable,
                inCycle: node.inCycle,
                isHighlighted: node.isHighlighted,
                isUnknown: node.isUnknown,
                note: node.note
            ))
        }
        func number(_ name: String) -> Int {
            if let existing = index[name] { return existing }
            index[name] = nodes.count
            nodes.append(Node(name: name, isUnknown: true))
            return nodes.count - 1
        }
        var edges: [Edge] = []
        edges.reserveCapacity(diagram.edges.count)
        for edge in diagram.edges {
            let from = number(edge.from)
            let to = number(edge.to)
            edges.append(Edge(
                from: from,
                to: to,
                kind: edge.kind,
                isDirectJump: edge.isDirectJump,
                inCycle: edge.inCycle,
                isHighlighted: edge.isHighlighted,
                label: edge.label,
                isWarning: edge.isWarning
            ))
        }
        self.nodes = nodes
        self.hidden = Array(repeating: false, count: nodes.count)
        self.edges = edges
    }

    /// Replaces each run of at least `minimumRun` unmarked intermediate versions joined by
    /// plain lightweight steps with one edge. See ``DOTWriter`` for the exact rule.
    mutating func collapseLightweightRuns(minimumRun: Int) {
        let count = nodes.count
        var inDegree = Array(repeating: 0, count: count)
        var outDegree = Array(repeating: 0, count: count)
        var inEdge = Array(repeating: -1, count: count)
        var outEdge = Array(repeating: -1, count: count)
        for (position, edge) in edges.enumerated() {
            outDegree[edge.from] += 1
            inDegree[edge.to] += 1
            outEdge[edge.from] = position
            inEdge[edge.to] = position
        }
        var collapsible = Array(repeating: false, count: count)
        for node in 0..<count where inDegree[node] == 1 && outDegree[node] == 1 && !nodes[node].isMarked {
            let incoming = edges[inEdge[node]]
            let outgoing = edges[outEdge[node]]
            collapsible[node] = incoming.isPlainLightweight && outgoing.isPlainLightweight
                && incoming.from != node && outgoing.to != node
        }

        var removed = Array(repeating: false, count: edges.count)
        var replacement: [Int: Edge] = [:]
        var visited = Array(repeating: false, count: count)
        for (position, edge) in edges.enumerated()
        where !collapsible[edge.from] && collapsible[edge.to] && edge.isPlainLightweight {
            var run: [Int] = []
            var runEdges = [position]
            var current = edge.to
            while collapsible[current] && !visited[current] {
                visited[current] = true
                run.append(current)
                let next = outEdge[current]
                runEdges.append(next)
                current = edges[next].to
            }
            guard run.count >= minimumRun, !collapsible[current] else { continue }
            for runEdge in runEdges { removed[runEdge] = true }
            for node in run { hidden[node] = true }
            replacement[position] = Edge(
                from: edge.from,
                to: current,
                kind: .lightweight,
                collapsedSteps: runEdges.count
            )
        }
        guard !replacement.isEmpty else { return }
        var result: [Edge] = []
        result.reserveCapacity(edges.count)
        for position in edges.indices {
            if let collapsed = replacement[position] {
                result.append(collapsed)
            } else if !removed[position] {
                result.append(edges[position])
            }
        }
        edges = result
    }
}
