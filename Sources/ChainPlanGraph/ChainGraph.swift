import ChainPlanCore
import ChainPlanReaders
/// The migration graph: each version has at most one successor (CoreStore's version tree).
///
/// Built from a spec's entries in file order. When a source appears twice (a CP101/CP102
/// finding) the first successor is kept; self-loops (CP103) are dropped, as CoreStore's
/// `nextVersionFrom` ignores them. Versions are numbered in order of first appearance.
package struct ChainGraph: Sendable {
    /// One effective step of the graph.
    package struct Edge: Sendable, Hashable {
        package var from: Int
        package var to: Int
        /// Where the step's destination is written, when it comes from a spec.
        package var location: SourceLocation?
    }

    package private(set) var versions: [String] = []
    package private(set) var index: [String: Int] = [:]
    /// Where each version is first written (nil for versions that only come from a bundle).
    package private(set) var firstLocation: [SourceLocation?] = []
    /// `successor[v]` is the next version of `v`, or -1.
    package private(set) var successor: [Int] = []
    /// Effective edges in spec order.
    package private(set) var edges: [Edge] = []

    package init() {}

    /// Adds a version if new and returns its number.
    @discardableResult
    package mutating func add(_ name: String, at location: SourceLocation?) -> Int {
        if let existing = index[name] { return existing }
        let number = versions.count
        versions.append(name)
        index[name] = number
        firstLocation.append(location)
        successor.append(-1)
        return number
    }

    /// Adds a step unless it is a self-loop or its source already has a successor.
    /// Returns false when the step was not added.
    @discardableResult
    package mutating func addEdge(from: Int, to: Int, at location: SourceLocation?) -> Bool {
        guard from != to, successor[from] < 0 else { return false }
        successor[from] = to
        edges.append(Edge(from: from, to: to, location: location))
        return true
    }

    package var count: Int { versions.count }

    /// Builds the graph of a spec's chain. For the empty form, no edges are added here.
    package static func build(from spec: ChainSpec) -> ChainGraph {
        var graph = ChainGraph()
        switch spec.form {
        case .empty:
            break
        case .single:
            for entry in spec.arrayEntries { graph.add(entry.value, at: entry.location) }
        case .array:
            var previous: Int?
            for entry in spec.arrayEntries {
                let current = graph.add(entry.value, at: entry.location)
                if let previous { graph.addEdge(from: previous, to: current, at: entry.location) }
                previous = current
            }
        case .tree:
            for entry in spec.treeEntries {
                let source = graph.add(entry.source.value, at: entry.source.location)
                let destination = graph.add(entry.destination.value, at: entry.destination.location)
                graph.addEdge(from: source, to: destination, at: entry.destination.location)
            }
        }
        return graph
    }

    /// Versions with no successor, in version order.
    package var leaves: [Int] { (0..<count).filter { successor[$0] < 0 } }
}

/// Reachability of the target from every version, computed once in O(V + E).
///
/// Because every version has at most one successor, following successors from any start
/// either reaches the target, stops at a dead end, or enters a cycle. Each version's fate is
/// memoised, so the whole graph is walked once.
package struct Reachability: Sendable {
    package enum Fate: Sendable, Hashable {
        /// Reaches the target in `length` steps (0 for the target itself).
        case reaches(length: Int)
        /// Stops at `deadEnd`, a version with no successor that is not the target.
        case deadEnd(Int)
        /// Enters the cycle whose smallest-numbered member is `cycle`.
        case cycle(Int)
        /// There is no target.
        case noTarget
    }

    package let fates: [Fate]
    /// The cycles, each as its members in successor order starting from the member that
    /// appears first in the spec; ordered by that member.
    package let cycles: [[Int]]

    package init(graph: ChainGraph, target: Int?) {
        let n = graph.count
        var fates = [Fate?](repeating: nil, count: n)
        // 0 = unvisited, 1 = on the current walk, 2 = done
        var state = [UInt8](repeating: 0, count: n)
        var cycles: [[Int]] = []
        var walk: [Int] = []
        for start in 0..<n where state[start] == 0 {
            walk.removeAll(keepingCapacity: true)
            var current = start
            var outcome: Fate
            while true {
                if state[current] == 2 {
                    outcome = fates[current]!
                    break
                }
                if state[current] == 1 {
                    // A new cycle: the walk from `current` onwards.
                    let begin = walk.firstIndex(of: current)!
                    let members = Array(walk[begin...])
                    let first = members.min()!
                    let rotation = members.firstIndex(of: first)!
                    cycles.append(Array(members[rotation...] + members[..<rotation]))
                    for member in members {
                        fates[member] = .cycle(first)
                        state[member] = 2
                    }
                    walk.removeSubrange(begin...)
                    outcome = .cycle(first)
                    break
                }
                state[current] = 1
                walk.append(current)
                if current == target {
                    outcome = .reaches(length: 0)
                    fates[current] = outcome
                    state[current] = 2
                    walk.removeLast()
                    break
                }
                let next = graph.successor[current]
                if next < 0 {
                    outcome = target == nil ? .noTarget : .deadEnd(current)
                    fates[current] = outcome
                    state[current] = 2
                    walk.removeLast()
                    break
                }
                current = next
            }
            // Unwind: everything left on the walk leads to `outcome`, one step further each.
            for member in walk.reversed() {
                if case .reaches(let length) = outcome { outcome = .reaches(length: length + 1) }
                fates[member] = outcome
                state[member] = 2
            }
        }
        self.fates = fates.map { $0 ?? .noTarget }
        self.cycles = cycles.sorted { $0[0] < $1[0] }
    }
}
