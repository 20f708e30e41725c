import ChainPlanReaders
/// Which version stores must reach, decided as CoreStore does.
///
/// - An explicit `target` in the spec wins.
/// - An empty chain targets the bundle's current version.
/// - Otherwise the target is the single leaf (a version without successor). With a bundle,
///   only leaves that exist in the bundle count (CoreStore: `modelVersions ∩ leafVersions`).
package struct TargetResolution: Sendable {
    package enum Problem: Sendable, Hashable {
        case severalLeaves([Int])
        case noLeaf
        case explicitTargetNotInChain(Located<String>)
        case noCurrentVersion
    }

    /// The target's number in the graph, when resolved.
    package let version: Int?
    package let problem: Problem?

    init(spec: ChainSpec, graph: ChainGraph, bundle: ModelBundle?) {
        if let explicit = spec.target {
            if let number = graph.index[explicit.value] {
                version = number
                problem = nil
            } else {
                version = nil
                problem = .explicitTargetNotInChain(explicit)
            }
            return
        }
        if spec.form == .empty {
            if let current = bundle?.currentVersion, let number = graph.index[current] {
                version = number
                problem = nil
            } else {
                version = nil
                problem = bundle == nil ? nil : .noCurrentVersion
            }
            return
        }
        var leaves = graph.leaves.filter { graph.firstLocation[$0] != nil }
        if let bundle {
            let known = Set(bundle.versionNames)
            let existing = leaves.filter { known.contains(graph.versions[$0]) }
            if !existing.isEmpty { leaves = existing }
        }
        switch leaves.count {
        case 1:
            version = leaves[0]
            problem = nil
        case 0:
            version = nil
            problem = .noLeaf
        default:
            version = nil
            problem = .severalLeaves(leaves)
        }
    }
}
