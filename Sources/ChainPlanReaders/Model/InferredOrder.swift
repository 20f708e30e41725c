/// The chain chainplan guesses for a bundle given without a spec (and that `init` writes): the
/// versions in the order they were added to the repository when git says so, else in natural
/// version order, ending at the bundle's current version.
public struct InferredOrder: Sendable, Hashable {
    /// What decided the order.
    public enum Evidence: Sendable, Hashable {
        /// The commits that first added each version (git history).
        case history
        /// The versions' names; `why` says why history was not used, when it was looked for.
        case names(why: String?)
        /// SwiftData schemas without a `SchemaMigrationPlan`: their `versionIdentifier`s.
        case versionIdentifiers
    }

    /// The chain, oldest first; it ends at the current version when the bundle names one.
    public var versions: [String]
    public var evidence: Evidence
    /// Versions ordered after the current version: not part of the chain (no store can be on
    /// them yet).
    public var leftOut: [String]

    public init(versions: [String], evidence: Evidence, leftOut: [String]) {
        self.versions = versions
        self.evidence = evidence
        self.leftOut = leftOut
    }

    /// Orders `names` (every version of the bundle) by `addedOrder` (each committed version's
    /// place in the order versions were added; uncommitted versions come last), ties and
    /// uncommitted versions in natural version order; by names alone when `addedOrder` is nil
    /// or puts every version at one place. `current` ends the chain.
    public static func make(names: [String], current: String?, addedOrder: [String: Int]?, whyNoHistory: String? = nil) -> InferredOrder {
        let natural = VersionOrder.sorted(names)
        let rank = Dictionary(uniqueKeysWithValues: natural.enumerated().map { ($1, $0) })
        var ordered = natural
        var evidence = Evidence.names(why: whyNoHistory)
        if let addedOrder, Set(names.compactMap { addedOrder[$0] }).count > 1 {
            ordered = natural.sorted { a, b in
                let (placeA, placeB) = (addedOrder[a] ?? Int.max, addedOrder[b] ?? Int.max)
                return placeA != placeB ? placeA < placeB : rank[a, default: 0] < rank[b, default: 0]
            }
            evidence = .history
        }
        guard let current, let end = ordered.firstIndex(of: current) else {
            return InferredOrder(versions: ordered, evidence: evidence, leftOut: [])
        }
        return InferredOrder(versions: Array(ordered[...end]), evidence: evidence, leftOut: Array(ordered[(end + 1)...]))
    }
}
