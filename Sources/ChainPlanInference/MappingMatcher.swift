import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import Foundation

/// How a mapping model was tied to a pair of versions.
package enum MappingMatchBasis: String, Sendable, Hashable {
    /// The entity hashes of its embedded snapshots qualify it for the two versions (§3).
    case content
    /// Its stated `sourcemodelpath`/`destinationmodelpath` name the two versions.
    case path
}

/// The pair of versions a mapping model covers.
package struct MappingMatch: Sendable, Hashable {
    package var mappingModel: MappingModel
    package var from: String
    package var to: String
    package var basis: MappingMatchBasis
    /// True when an embedded snapshot is no longer hash-equivalent to the version its
    /// stated path names: Core Data will not find this mapping model at runtime (CP208).
    package var isStale: Bool
    /// What changed in the named versions since the mapping model was made (snapshot →
    /// version), e.g. `destination 'Delta 11': entity 'Game': attribute 'isFavorite' added`.
    package var staleDifferences: [String]
    /// True when `from → to` is a step of the chain (otherwise CP121 was reported).
    package var isChainStep: Bool

    package init(mappingModel: MappingModel, from: String, to: String, basis: MappingMatchBasis,
                isStale: Bool = false, staleDifferences: [String] = [], isChainStep: Bool = true) {
        self.mappingModel = mappingModel
        self.from = from
        self.to = to
        self.basis = basis
        self.isStale = isStale
        self.staleDifferences = staleDifferences
        self.isChainStep = isChainStep
    }
}

/// Decides which step of a chain each mapping model covers.
///
/// Core Data picks a mapping model at runtime by entity version hashes (`core-data-internals.md`
/// §3): it fits a migration when the source hashes its entity mappings record are a non-empty
/// subset of the source model's and the destination hashes a subset of the destination
/// model's. A compiled `.cdm` records those hashes; an `.xcmappingmodel` embeds the two models it
/// was made from, and hashing them (for the entities its entity mappings name) gives the hashes
/// its compiled form carries (`MappingHashes`). So matching is:
/// 1. **By hashes**: version X qualifies as source, Y as destination. Pairs that are chain
///    steps win; then the pair the stated paths name; then version order.
/// 2. **By stated path**: the version names in `sourcemodelpath`/`destinationmodelpath`
///    (folders and `⭐️` markers ignored; the bundle name must agree when both are known).
///    When a mapped entity's hash then differs from the named version's, the mapping is
///    *stale* (CP208, naming the entity and what changed): the model was edited after the
///    mapping was made, and Core Data skips the mapping model without a word.
///
/// A version that cannot be hashed (CP122) never matches by hashes.
///
/// A mapping model that matches no version pair is CP121, unless it evidently belongs to
/// another bundle (its stated bundle differs and no version matches its content); those
/// are returned in `foreign` without a finding, so a caller can offer every discovered
/// mapping model to every bundle.
package enum MappingMatcher {
    /// The outcome for a set of mapping models against one bundle.
    package struct Result: Sendable, Hashable {
        /// One entry per mapping model that names or matches a pair of this bundle's versions,
        /// in the order of the input.
        package var matches: [MappingMatch]
        /// Mapping models that match nothing here (each has a CP121).
        package var unmatched: [MappingModel]
        /// Mapping models whose stated bundle is another one and whose content matches no version.
        package var foreign: [MappingModel]
        package var diagnostics: [Diagnostic]

        package init(matches: [MappingMatch] = [], unmatched: [MappingModel] = [], foreign: [MappingModel] = [],
                    diagnostics: [Diagnostic] = []) {
            self.matches = matches
            self.unmatched = unmatched
            self.foreign = foreign
            self.diagnostics = diagnostics
        }

        /// The match covering the chain step `from → to`, if any (the first, in input order).
        package func match(from: String, to: String) -> MappingMatch? {
            matches.first { $0.isChainStep && $0.from == from && $0.to == to }
        }
    }

    /// How many differences a CP208 message names before "and N more".
    package static let differencesInMessage = 3

    /// Matches `mappingModels` against the `versions` of the bundle `bundleName` and the
    /// chain's `steps`. `versionHashes`: the versions' hashes when the caller has them already
    /// (else they are computed, and only when there is a mapping model to match).
    package static func match(
        _ mappingModels: [MappingModel], versions: [ModelVersion], bundleName: String?,
        steps: [(from: String, to: String)], versionHashes: [VersionHashes]? = nil
    ) -> Result {
        let stepSet = Set(steps.map { StepKey(from: $0.from, to: $0.to) })
        let order = Dictionary(versions.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let hashed: [(name: String, entities: [String: Data])] = mappingModels.isEmpty ? []
            : (versionHashes ?? Parallel.map(versions) { VersionHashes($0, withProperties: false) }).compactMap { version in
                version.hashes.map { (version.version, $0.entities) }
            }
        let hashesByName = Dictionary(hashed.map { ($0.name, $0.entities) }, uniquingKeysWith: { first, _ in first })
        let modelByName = Dictionary(versions.compactMap { version in version.model.map { (version.name, $0) } },
                                     uniquingKeysWith: { first, _ in first })

        var result = Result()
        for mapping in mappingModels {
            let hinted: StepKey? = {
                guard let source = mapping.sourceHint, let destination = mapping.destinationHint,
                      order[source.version] != nil, order[destination.version] != nil,
                      bundleAgrees(source.bundle, bundleName), bundleAgrees(destination.bundle, bundleName)
                else { return nil }
                return StepKey(from: source.version, to: destination.version)
            }()

            // 1. By content.
            let sourceHashes = MappingHashes.source(of: mapping)
            let destinationHashes = MappingHashes.destination(of: mapping)
            let sources = MappingHashes.qualifying(sourceHashes, among: hashed, nonEmpty: true)
            let destinations = MappingHashes.qualifying(destinationHashes, among: hashed, nonEmpty: false)
            var pairs: [StepKey] = []
            for source in sources {
                for destination in destinations where source != destination {
                    pairs.append(StepKey(from: source, to: destination))
                }
            }
            if let best = pairs.min(by: { rank($0, stepSet, hinted, order) < rank($1, stepSet, hinted, order) }) {
                let isStep = stepSet.contains(best)
                result.matches.append(MappingMatch(mappingModel: mapping, from: best.from, to: best.to, basis: .content,
                                                   isChainStep: isStep))
                if !isStep {
                    result.diagnostics.append(Self.offChain(mapping, from: best.from, to: best.to, basis: .content))
                }
                continue
            }

            // 2. By stated path.
            if let hinted {
                var differences: [String] = []
                var stale = false
                for (role, snapshot, recorded, version) in [
                    ("source", mapping.sourceModel, sourceHashes, hinted.from),
                    ("destination", mapping.destinationModel, destinationHashes, hinted.to),
                ] {
                    guard let snapshot, let recorded, let named = hashesByName[version], let model = modelByName[version] else { continue }
                    // Snapshot → version: the mapped entities whose hash moved since the mapping was made,
                    // and those its entity mappings name but its embedded model lacks (no hash to record).
                    let mapped = Set(mapping.entityMappings.compactMap { role == "source" ? $0.sourceEntity : $0.destinationEntity })
                    let missing = VersionHasher.sortedNames(mapped.filter { recorded[$0] == nil })
                        .map { "\(role) '\(version)': entity '\($0)' is mapped but not in the embedded model" }
                    let changes = missing + MappingHashes.staleEntities(snapshot: snapshot, recorded: recorded, version: model, hashes: named)
                        .map { "\(role) '\(version)': entity \($0)" }
                    if !changes.isEmpty {
                        stale = true
                        differences += changes
                    }
                }
                let isStep = stepSet.contains(hinted)
                result.matches.append(MappingMatch(mappingModel: mapping, from: hinted.from, to: hinted.to, basis: .path,
                                                   isStale: stale, staleDifferences: differences, isChainStep: isStep))
                if stale {
                    result.diagnostics.append(Self.stale(mapping, from: hinted.from, to: hinted.to, differences: differences))
                }
                if !isStep {
                    result.diagnostics.append(Self.offChain(mapping, from: hinted.from, to: hinted.to, basis: .path))
                }
                continue
            }

            // 3. Nothing here: another bundle's mapping model, or an unmatched one.
            let statedBundles = [mapping.sourceHint?.bundle, mapping.destinationHint?.bundle].compactMap { $0 }
            if let bundleName, !statedBundles.isEmpty, !statedBundles.contains(bundleName), sources.isEmpty, destinations.isEmpty {
                result.foreign.append(mapping)
                continue
            }
            result.unmatched.append(mapping)
            result.diagnostics.append(Self.unmatched(mapping, sources: sources, destinations: destinations, bundleName: bundleName,
                                                     sourceHashes: sourceHashes, destinationHashes: destinationHashes, among: hashed))
        }
        result.diagnostics.sort()
        return result
    }

    /// Convenience: matches against a whole bundle.
    package static func match(_ mappingModels: [MappingModel], bundle: ModelBundle, steps: [(from: String, to: String)],
                             versionHashes: [VersionHashes]? = nil) -> Result {
        match(mappingModels, versions: bundle.versions, bundleName: bundle.name, steps: steps, versionHashes: versionHashes)
    }

    struct StepKey: Hashable {
        var from: String
        var to: String
    }

    static func bundleAgrees(_ stated: String?, _ actual: String?) -> Bool {
        guard let stated, let actual else { return true }
        return stated == actual
    }

    /// Lower is better: chain steps, then the stated pair, then bundle order.
    private static func rank(_ pair: StepKey, _ steps: Set<StepKey>, _ hinted: StepKey?,
                             _ order: [String: Int]) -> (Int, Int, Int, Int) {
        (steps.contains(pair) ? 0 : 1, pair == hinted ? 0 : 1, order[pair.from] ?? Int.max, order[pair.to] ?? Int.max)
    }
}
