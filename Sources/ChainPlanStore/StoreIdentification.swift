import ChainPlanCore
import ChainPlanReaders
import Foundation

/// Which evidence identified a store's model version, strongest first.
package enum IdentificationEvidence: String, Sendable, Hashable, Codable {
    /// The store's entity hashes equal a version's hashes in a compiled `VersionInfo.plist`.
    case hashes
    /// The store's `NSStoreModelVersionIdentifiers` name a version identifier unique in the bundle.
    case identifiers
    /// The store's entities, tables and columns are exactly what one version implies.
    case structure
}

/// One model version scored against a store.
package struct VersionCandidate: Sendable, Hashable {
    package var version: String
    /// Structural similarity in [0, 1]; 1 means the structure is exactly what the version implies.
    package var score: Double
    /// True when only the version's own entities and tables were compared (a store written
    /// with a merged model holds other models' entities too).
    package var comparedModelPartOnly: Bool

    package init(version: String, score: Double, comparedModelPartOnly: Bool = false) {
        self.version = version
        self.score = score
        self.comparedModelPartOnly = comparedModelPartOnly
    }
}

/// The model version a store was written by, and why.
package struct StoreIdentification: Sendable, Hashable {
    /// The version, when the evidence singles one out.
    package var detectedVersion: String?
    /// The evidence that decided (nil when undecided).
    package var evidence: IdentificationEvidence?
    /// Every readable version with its structural score, best first (ties in bundle order).
    package var candidates: [VersionCandidate]
    /// How the store differs from the best structural candidate (empty when it matches).
    package var closestDifferences: StructuralDifferences?
    /// CP301 (no version matches), CP302 (several match equally) and notes, sorted.
    package var diagnostics: [Diagnostic]

    package init(detectedVersion: String? = nil, evidence: IdentificationEvidence? = nil,
                candidates: [VersionCandidate] = [], closestDifferences: StructuralDifferences? = nil,
                diagnostics: [Diagnostic] = []) {
        self.detectedVersion = detectedVersion
        self.evidence = evidence
        self.candidates = candidates
        self.closestDifferences = closestDifferences
        self.diagnostics = diagnostics
    }
}

/// Identifies the model version of a store from its metadata.
///
/// Evidence, best first:
/// 1. **Hashes**: the store's `NSStoreModelVersionHashes` equal a version's exactly — Core
///    Data's own rule — from a compiled `VersionInfo.plist` when given, else computed from the
///    bundle (`StoreHashIdentification`). Several equal versions are told apart by
///    identifiers, else CP302. A store with hashes that match no version is CP301 with the
///    nearest version; steps 2 and 3 apply only to stores that record no hashes.
/// 2. **Identifiers**: a non-empty entry of `NSStoreModelVersionIdentifiers` equals the
///    `versionIdentifier` of exactly one bundle version. Empty entries are ignored (`[""]`
///    is the common case); a merged model lists several (`["", "3"]`), any of which may
///    name the version. An identifier shared by several versions (Wire's three `2.15`)
///    only narrows the structural comparison to those versions.
/// 3. **Structure**: `StoreFingerprint` of the store against each version's expected
///    layout. A version **matches only when the score is exactly 1.0** (every entity,
///    table, column and join table agrees after tolerant normalisation). A near score is
///    not accepted: consecutive versions often differ by one attribute, so 0.98 is as
///    likely "a version missing from the bundle" as "this version". When no version
///    matches the whole store, a version whose own entities and tables match exactly is
///    accepted if every extra entity of the store belongs to no version of the bundle (a
///    store written with a merged model, like DuckDuckGo's).
/// No match: CP301 naming the closest version and the differences (and identifiers the
/// bundle lacks). Several exact matches: CP302 listing them, and no detected version.
package enum StoreIdentifier {
    /// Identifies the version of `metadata` among `versions` (in bundle order).
    package static func identify(
        metadata: StoreMetadata, versions: [ModelVersion], compiled: CompiledModelInfo? = nil
    ) -> StoreIdentification {
        let location = SourceLocation(file: metadata.displayPath)
        let shown = metadata.displayPath
        var diagnostics: [Diagnostic] = []
        let bundleNames = versions.map(\.name)
        let bundleIndex = Dictionary(bundleNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })

        // Structure is always scored: candidates tell the reader how close each version is.
        let store = StoreFingerprint(store: metadata)
        let readable = versions.compactMap { version in version.model.map { (version.name, StoreFingerprint(model: $0)) } }
        var scored = readable.map { name, expected in
            (name: name, expected: expected, score: expected.similarity(to: store))
        }
        scored.sort { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            return (bundleIndex[lhs.name] ?? 0) < (bundleIndex[rhs.name] ?? 0)
        }
        var candidates = scored.map { VersionCandidate(version: $0.name, score: $0.score) }
        let closest = scored.first
        var closestDifferences = closest.map { $0.expected.differences(from: store) }

        func result(_ version: String?, _ evidence: IdentificationEvidence?) -> StoreIdentification {
            StoreIdentification(detectedVersion: version, evidence: evidence, candidates: candidates,
                                closestDifferences: closestDifferences, diagnostics: diagnostics.sorted())
        }

        // 1. Hashes.
        if let compiled, !metadata.modelVersionHashes.isEmpty {
            let matches = compiled.versions(matchingHashes: metadata.modelVersionHashes)
            let known = versions.isEmpty ? matches : matches.filter { bundleIndex[$0] != nil }.sorted {
                (bundleIndex[$0] ?? 0) < (bundleIndex[$1] ?? 0)
            }
            if known.count == 1 { return result(known[0], .hashes) }
            if known.count > 1 {
                let byIdentifier = versionsNamed(by: metadata.modelVersionIdentifiers, among: known, in: versions)
                if byIdentifier.count == 1 { return result(byIdentifier[0], .hashes) }
                diagnostics.append(.ambiguousStoreVersion(shown, .entityHashes(known, identical: false), at: location))
                return result(nil, .hashes)
            }
            if !matches.isEmpty {
                diagnostics.append(.unknownStoreVersion(shown, .compiledOnly(matches), at: location))
            } else {
                diagnostics.append(.unknownStoreVersion(shown, .matchesNoCompiledVersion(path: compiled.path), at: location))
            }
        }

        // 1b. Hashes computed from the bundle's XML: Core Data's own lookup (§2). A store that
        // records hashes is decided here; identifiers and structure are fallbacks for stores
        // without hashes only.
        if !metadata.modelVersionHashes.isEmpty, let decided = StoreHashIdentification.identify(
            metadata: metadata, versions: versions, diagnostics: &diagnostics) {
            return result(decided.version, decided.version == nil ? nil : .hashes)
        }

        // 2. Identifiers.
        let storeIdentifiers = metadata.modelVersionIdentifiers.filter { !$0.isEmpty }
        var narrowed: [String]?
        var identifierAmbiguity: [String]?
        var unknownIdentifiers: [String] = []
        if !storeIdentifiers.isEmpty {
            var versionsByIdentifier: [String: [String]] = [:]
            for version in versions {
                if let identifier = version.model?.versionIdentifier, !identifier.isEmpty {
                    versionsByIdentifier[identifier, default: []].append(version.name)
                }
            }
            let unique = Set(storeIdentifiers.compactMap { id in
                versionsByIdentifier[id].flatMap { $0.count == 1 ? $0[0] : nil }
            }).sorted { (bundleIndex[$0] ?? 0) < (bundleIndex[$1] ?? 0) }
            if unique.count == 1 { return result(unique[0], .identifiers) }
            if unique.count > 1 {
                identifierAmbiguity = unique
                narrowed = unique
            } else {
                let shared = Set(storeIdentifiers.flatMap { versionsByIdentifier[$0] ?? [] })
                if !shared.isEmpty { narrowed = shared.sorted { (bundleIndex[$0] ?? 0) < (bundleIndex[$1] ?? 0) } }
            }
            unknownIdentifiers = storeIdentifiers.filter { versionsByIdentifier[$0] == nil }.sorted()
        }

        // 3. Structure: among the versions the identifiers point at, else among all.
        var pool = scored.filter { narrowed?.contains($0.name) ?? true }
        if narrowed != nil, !pool.contains(where: { $0.score == 1 }), scored.contains(where: { $0.score == 1 }) {
            pool = scored
        }
        var exact = pool.filter { $0.score == 1 }.map(\.name)
        if exact.isEmpty {
            // A merged-model store: compare each version's part of the store, when every
            // entity outside that part belongs to no version of this bundle.
            let bundleEntities = Set(readable.flatMap { $0.1.entityNames })
            let restrictedScores = pool.map { entry -> (name: String, score: Double) in
                let extras = store.entityNames.subtracting(entry.expected.entityNames)
                guard !extras.isEmpty, extras.isDisjoint(with: bundleEntities) else { return (entry.name, 0) }
                return (entry.name, entry.expected.similarity(to: store.restricted(to: entry.expected)))
            }
            exact = restrictedScores.filter { $0.score == 1 }.map(\.name)
            if !exact.isEmpty {
                let restricted = Dictionary(restrictedScores.map { ($0.name, $0.score) }, uniquingKeysWith: { first, _ in first })
                candidates = candidates.map { candidate in
                    guard let score = restricted[candidate.version], score > 0 else { return candidate }
                    return VersionCandidate(version: candidate.version, score: score, comparedModelPartOnly: true)
                }
                candidates.sort { lhs, rhs in
                    if lhs.score != rhs.score { return lhs.score > rhs.score }
                    return (bundleIndex[lhs.version] ?? 0) < (bundleIndex[rhs.version] ?? 0)
                }
                if let best = pool.first(where: { $0.name == exact[0] }) {
                    closestDifferences = best.expected.differences(from: store.restricted(to: best.expected))
                }
            }
        }
        if exact.count == 1 {
            let version = exact[0]
            if let narrowed, !narrowed.contains(version) {
                diagnostics.append(.unknownStoreVersion(shown, .identifierDisagrees(named: narrowed, version: version), at: location))
            }
            if !unknownIdentifiers.isEmpty {
                diagnostics.append(.unknownStoreVersion(shown, .unknownIdentifiers(unknownIdentifiers, version: version), at: location))
            }
            return result(version, .structure)
        }
        if let identifierAmbiguity {
            diagnostics.append(.ambiguousStoreVersion(shown, .identifiers(identifierAmbiguity), at: location))
            if exact.isEmpty { return result(nil, nil) }
        }
        if exact.count > 1 {
            diagnostics.append(.ambiguousStoreVersion(shown, .structure(exact), at: location))
            return result(nil, nil)
        }

        // No match.
        var reasons: [String] = []
        if !unknownIdentifiers.isEmpty {
            reasons.append("it names model version identifier \(unknownIdentifiers.quotedList), which no version in the bundle has")
        }
        if let closest {
            let score = NumberText.fixed(closest.score, digits: 2)
            let differences = closestDifferences?.summary() ?? ""
            reasons.append("the closest version by structure is '\(closest.name)' (score \(score)): \(differences)")
        } else {
            reasons.append("the bundle has no readable model version")
        }
        // Core Data's source model search includes the model cached in the store (§2): plain Core
        // Data can still migrate such a store; CoreStore matches hashes against the bundle only.
        reasons.append("plain Core Data can still migrate it from the model cached in the store's Z_MODELCACHE table, when the store has one; "
                       + "CoreStore cannot (it looks for the store's hashes in the bundle only)")
        diagnostics.append(.unknownStoreVersion(shown, .noMatch(reasons: reasons, nearest: closest?.name), at: location))
        return result(nil, nil)
    }

    /// Versions among `names` whose non-empty identifier appears in `identifiers`.
    private static func versionsNamed(by identifiers: [String], among names: [String], in versions: [ModelVersion]) -> [String] {
        let wanted = Set(identifiers.filter { !$0.isEmpty })
        return names.filter { name in
            guard let identifier = versions.first(where: { $0.name == name })?.model?.versionIdentifier else { return false }
            return wanted.contains(identifier)
        }
    }
}
