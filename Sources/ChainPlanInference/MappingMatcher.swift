/// How a mapping model was tied to a pair of versions.
public enum MappingMatchBasis: String, Sendable, Hashable {
    /// Its embedded source and destination snapshots are hash-equivalent to the two versions.
    case content
    /// Its stated `sourcemodelpath`/`destinationmodelpath` name the two versions.
    case path
}

/// The pair of versions a mapping model covers.
public struct MappingMatch: Sendable, Hashable {
    public var mappingModel: MappingModel
    public var from: String
    public var to: String
    public var basis: MappingMatchBasis
    /// True when an embedded snapshot is no longer hash-equivalent to the version its
    /// stated path names: Core Data will not find this mapping model at runtime (CP208).
    public var isStale: Bool
    /// What changed in the named versions since the mapping model was made (snapshot →
    /// version), e.g. `destination 'Delta 11': entity 'Game': attribute 'isFavorite' added`.
    public var staleDifferences: [String]
    /// True when `from → to` is a step of the chain (otherwise CP121 was reported).
    public var isChainStep: Bool

    public init(mappingModel: MappingModel, from: String, to: String, basis: MappingMatchBasis,
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
/// Core Data picks a mapping model at runtime by comparing the entity version hashes
/// recorded in the compiled `.cdm` with the store's and the destination model's
/// (reference `core-data.md` §4). The closest thing chainplan can read is the editor's
/// embedded snapshots, so matching is:
/// 1. **By content**: the source snapshot's `MigrationSignature` (hash-relevant fields,
///    renaming identifiers excluded, since they are not documented hash inputs) equals
///    version X's, and the destination snapshot's equals version Y's. Pairs that are
///    chain steps win; then the pair the stated paths name; then version order.
/// 2. **By stated path**: the version names in `sourcemodelpath`/`destinationmodelpath`
///    (folders and `⭐️` markers ignored; the bundle name must agree when both are known).
///    When a snapshot then differs from the named version the mapping is *stale* (CP208,
///    with the first differences): the model was edited after the mapping was made.
///
/// Tolerance: only fields the snapshot records are compared (`MappingModel`'s
/// `sourceUnrecordedFields`/`destinationUnrecordedFields`; every snapshot in the corpus
/// records all of them). A version whose model could not be read never matches by content.
///
/// A mapping model that matches no version pair is CP121, unless it evidently belongs to
/// another bundle (its stated bundle differs and no version matches its content); those
/// are returned in `foreign` without a finding, so a caller can offer every discovered
/// mapping model to every bundle.
public enum MappingMatcher {
    /// The outcome for a set of mapping models against one bundle.
    public struct Result: Sendable, Hashable {
        /// One entry per mapping model that names or matches a pair of this bundle's versions,
        /// in the order of the input.
        public var matches: [MappingMatch]
        /// Mapping models that match nothing here (each has a CP121).
        public var unmatched: [MappingModel]
        /// Mapping models whose stated bundle is another one and whose content matches no version.
        public var foreign: [MappingModel]
        public var diagnostics: [Diagnostic]

        public init(matches: [MappingMatch] = [], unmatched: [MappingModel] = [], foreign: [MappingModel] = [],
                    diagnostics: [Diagnostic] = []) {
            self.matches = matches
            self.unmatched = unmatched
            self.foreign = foreign
            self.diagnostics = diagnostics
        }

        /// The match covering the chain step `from → to`, if any (the first, in input order).
        public func match(from: String, to: String) -> MappingMatch? {
            matches.first { $0.isChainStep && $0.from == from && $0.to == to }
        }
    }

    /// How many differences a CP208 message names before "and N more".
    public static let differencesInMessage = 3

    /// Matches `mappingModels` against the `versions` of the bundle `bundleName` and the
    /// chain's `steps`.
    public static func match(
        _ mappingModels: [MappingModel], versions: [ModelVersion], bundleName: String?,
        steps: [(from: String, to: String)]
    ) -> Result {
        let stepSet = Set(steps.map { StepKey(from: $0.from, to: $0.to) })
        let order = Dictionary(versions.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let signatures: [(name: String, signature: MigrationSignature)] = versions.compactMap { version in
            version.model.map { (version.name, MigrationSignature($0).withoutRenamingIdentifiers) }
        }
        let signatureByName = Dictionary(signatures.map { ($0.name, $0.signature) }, uniquingKeysWith: { first, _ in first })

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
            let sources = candidates(mapping.sourceModel, unrecorded: mapping.sourceUnrecordedFields, among: signatures)
            let destinations = candidates(mapping.destinationModel, unrecorded: mapping.destinationUnrecordedFields, among: signatures)
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
                    result.diagnostics.append(Diagnostic(
                        .cp121,
                        "mapping model '\(mapping.name)' matches '\(best.from)' → '\(best.to)' by its embedded models, which is not a step of the chain",
                        at: SourceLocation(file: mapping.documentPath, line: mapping.line), versions: [best.from, best.to]))
                }
                continue
            }

            // 2. By stated path.
            if let hinted {
                var differences: [String] = []
                var stale = false
                for (role, snapshot, unrecorded, version) in [
                    ("source", mapping.sourceModel, mapping.sourceUnrecordedFields, hinted.from),
                    ("destination", mapping.destinationModel, mapping.destinationUnrecordedFields, hinted.to),
                ] {
                    guard let snapshot, let named = signatureByName[version] else { continue }
                    // Snapshot → version: what changed in the version since the mapping was made.
                    let embedded = MigrationSignature(snapshot).withoutRenamingIdentifiers.masking(unrecorded)
                    let changes = embedded.differences(to: named.masking(unrecorded), includingRenamingIdentifiers: false)
                        .map { "\(role) '\(version)': \($0)" }
                    if !changes.isEmpty {
                        stale = true
                        differences += changes
                    }
                }
                let isStep = stepSet.contains(hinted)
                result.matches.append(MappingMatch(mappingModel: mapping, from: hinted.from, to: hinted.to, basis: .path,
                                                   isStale: stale, staleDifferences: differences, isChainStep: isStep))
                let location = SourceLocation(file: mapping.documentPath, line: mapping.line)
                if stale {
                    let shown = differences.prefix(differencesInMessage).joined(separator: "; ")
                    let more = differences.count > differencesInMessage ? " (and \(differences.count - differencesInMessage) more)" : ""
                    result.diagnostics.append(Diagnostic(
                        .cp208,
                        "mapping model '\(mapping.name)' names '\(hinted.from)' → '\(hinted.to)' but its embedded models no longer match: \(shown)\(more)",
                        at: location, versions: [hinted.from, hinted.to]))
                }
                if !isStep {
                    result.diagnostics.append(Diagnostic(
                        .cp121,
                        "mapping model '\(mapping.name)' names '\(hinted.from)' → '\(hinted.to)', which is not a step of the chain",
                        at: location, versions: [hinted.from, hinted.to]))
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
            result.diagnostics.append(Diagnostic(
                .cp121, unmatchedMessage(mapping, sources: sources, destinations: destinations, bundleName: bundleName),
                at: SourceLocation(file: mapping.documentPath, line: mapping.line)))
        }
        result.diagnostics.sort()
        return result
    }

    /// Convenience: matches against a whole bundle.
    public static func match(_ mappingModels: [MappingModel], bundle: ModelBundle, steps: [(from: String, to: String)]) -> Result {
        match(mappingModels, versions: bundle.versions, bundleName: bundle.name, steps: steps)
    }

    private struct StepKey: Hashable {
        var from: String
        var to: String
    }

    private static func bundleAgrees(_ stated: String?, _ actual: String?) -> Bool {
        guard let stated, let actual else { return true }
        return stated == actual
    }

    /// Versions (in bundle order) whose signature equals the snapshot's, on recorded fields.
    private static func candidates(_ snapshot: ObjectModel?, unrecorded: Set<SignatureField>,
                                   among signatures: [(name: String, signature: MigrationSignature)]) -> [String] {
        guard let snapshot else { return [] }
        let embedded = MigrationSignature(snapshot).withoutRenamingIdentifiers.masking(unrecorded)
        return signatures.filter { $0.signature.masking(unrecorded) == embedded }.map(\.name)
    }

    /// Lower is better: chain steps, then the stated pair, then bundle order.
    private static func rank(_ pair: StepKey, _ steps: Set<StepKey>, _ hinted: StepKey?,
                             _ order: [String: Int]) -> (Int, Int, Int, Int) {
        (steps.contains(pair) ? 0 : 1, pair == hinted ? 0 : 1, order[pair.from] ?? Int.max, order[pair.to] ?? Int.max)
    }

    private static func unmatchedMessage(_ mapping: MappingModel, sources: [String], destinations: [String],
                                         bundleName: String?) -> String {
        var reasons: [String] = []
        switch (mapping.sourceModel, sources.isEmpty) {
        case (nil, _): reasons.append("its source snapshot is unreadable")
        case (_, true): reasons.append("its source snapshot equals no version")
        case (_, false): reasons.append("its source snapshot equals '\(sources[0])'")
        }
        switch (mapping.destinationModel, destinations.isEmpty) {
        case (nil, _): reasons.append("its destination snapshot is unreadable")
        case (_, true): reasons.append("its destination snapshot equals no version")
        case (_, false): reasons.append("its destination snapshot equals '\(destinations[0])'")
        }
        if let source = mapping.sourceHint, let destination = mapping.destinationHint {
            if let stated = [source.bundle, destination.bundle].compactMap({ $0 }).first(where: { !bundleAgrees($0, bundleName) }) {
                reasons.append("its stated paths name the bundle '\(stated)'")
            } else {
                reasons.append("its stated versions '\(source.version)' → '\(destination.version)' are not both in '\(bundleName ?? "the bundle")'")
            }
        } else {
            reasons.append("it states no usable model paths")
        }
        return "mapping model '\(mapping.name)' matches no step of the chain: " + reasons.joined(separator: ", ")
    }
}
