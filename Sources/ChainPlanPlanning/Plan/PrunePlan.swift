import ChainPlanCore
import ChainPlanHashing
import ChainPlanHistory
import ChainPlanReaders
import Foundation

/// `chainplan prune --oldest V`: what dropping every version older than V from the bundle
/// would do: the versions and files removed, the users stranded, and the spec to write.
public struct PruneReport: Sendable, Equatable, Encodable {
    /// A removed version whose users can no longer open their store.
    public struct Stranded: Sendable, Equatable, Encodable {
        public var version: String
        /// The release tags at which it was the current version (empty when git cannot tell).
        public var releases: [String]
        /// What happens to their stores.
        public var outcome: String
    }

    /// A removed version whose stores still open: a kept version has its entity hashes.
    public struct StillOpens: Sendable, Equatable, Encodable {
        public var version: String
        /// The kept version Core Data takes their stores for.
        public var opensAs: String
    }

    /// The bundle, as shown.
    public var bundle: String
    /// The oldest version kept.
    public var oldest: String
    /// The versions removed, oldest first.
    public var versions: [String]
    public var stranded: [Stranded]
    public var stillOpens: [StillOpens]
    /// The files and folders to delete (version folders and the mapping models from removed
    /// versions), as shown.
    public var removed: [String]
    /// Their size in bytes.
    public var bytes: Int
    /// The chain to write in the spec after pruning (JSON).
    public var chain: String
    /// False when the release tags could not be read from git (`releasesUnknown` says why).
    public var releasesKnown: Bool
    public var releasesUnknown: String?
}

/// Why `prune` could not run: the findings, or a message for a version the chain lacks.
public struct PruneFailure: Error, Sendable {
    public var diagnostics: [Diagnostic]
    public var message: String?
}

extension ProjectLoader {
    /// The pruning advice for the input with `oldest` as the oldest version kept: every version
    /// with a path through `oldest` to the target goes, with its mapping models. `tags` limits
    /// the releases read from git (every tag when nil).
    package func prune(inputAt url: URL, oldest: String, tags: String?) -> Result<PruneReport, PruneFailure> {
        let loaded: LoadedProject
        switch load(inputAt: url) {
        case .unusable(let report): return .failure(PruneFailure(diagnostics: report.diagnostics))
        case .project(let project): loaded = project
        }
        var planner = ChainPlanner(options: options)
        planner.keepsClassifications = true
        let outcome = planner.plan(.project(loaded))
        guard let bundle = loaded.bundle else {
            return .failure(PruneFailure(diagnostics: loaded.findings.filter { $0.code.unusableInput }, message: "the input names no readable model bundle"))
        }
        let report = outcome.report
        guard report.versions.contains(oldest) else {
            return .failure(PruneFailure(diagnostics: [], message: "'\(oldest)' is not a version of the chain"))
        }
        // The versions whose path to the target runs through `oldest`.
        var previous: [String: [String]] = [:]
        for path in report.paths { if let next = path.next { previous[next, default: []].append(path.start) } }
        var removedSet: Set<String> = []
        var queue = [oldest]
        while let version = queue.popLast() {
            for earlier in previous[version] ?? [] where removedSet.insert(earlier).inserted { queue.append(earlier) }
        }
        let order = report.versions
        let removedVersions = order.filter { removedSet.contains($0) }

        // Releases from git, when the bundle is in a work tree.
        var releases: [String: [String]] = [:]
        var releasesUnknown: String?
        if let bundleURL = loaded.bundleURL {
            switch versionHistory(of: loaded, bundle: bundle, at: bundleURL) {
            case .success(var history):
                if case .failure(let problem) = history.readCurrentVersions(tags: tags) { releasesUnknown = problem.reason } else { releases = history.currentIn }
            case .failure(let problem):
                releasesUnknown = problem.reason
            }
        }

        // A removed version hash-identical to a kept one still opens (Core Data matches stores by hashes).
        // The classifier hashed every version while planning.
        let hashes = (outcome.classified?.classifier.hashes ?? [:]).compactMapValues { $0.hashes?.entities }
        let kept = order.filter { !removedSet.contains($0) }
        var stranded: [PruneReport.Stranded] = []
        var stillOpens: [PruneReport.StillOpens] = []
        for version in removedVersions {
            if let entities = hashes[version], let twin = kept.first(where: { hashes[$0] == entities }) {
                stillOpens.append(PruneReport.StillOpens(version: version, opensAs: twin))
                continue
            }
            stranded.append(PruneReport.Stranded(
                version: version, releases: releases[version] ?? [],
                outcome: "no model of the app matches their stores: Core Data fails with 134130 (\"Can't find model for source store\") "
                    + "unless the app deletes or rebuilds the store"))
        }

        // The files: each removed version's folder, and the mapping models from a removed version.
        var files: [(shown: String, url: URL)] = []
        let base = options.baseDirectory
        for version in removedVersions {
            guard let path = bundle.version(named: version)?.path else { continue }
            let folder = path.hasSuffix("/contents") ? String(path.dropLast("/contents".count)) : path
            files.append((folder, URL(fileURLWithPath: folder, relativeTo: base)))
        }
        for (step, models) in outcome.matchedMappingModels.sorted(by: { ($0.key.from, $0.key.to) < ($1.key.from, $1.key.to) })
            where removedSet.contains(step.from) {
            for model in models { files.append((model.path, URL(fileURLWithPath: model.path, relativeTo: base))) }
        }
        let bytes = files.reduce(0) { $0 + Self.size(of: $1.url) }

        return .success(PruneReport(bundle: bundle.path, oldest: oldest, versions: removedVersions, stranded: stranded, stillOpens: stillOpens,
                                    removed: files.map(\.shown), bytes: bytes, chain: Self.prunedChain(loaded.spec, removing: removedSet),
                                    releasesKnown: releasesUnknown == nil, releasesUnknown: releasesUnknown))
    }

    /// The chain of `spec` without `removed`, as JSON: an array stays an array, a tree keeps
    /// the entries whose source stays.
    static func prunedChain(_ spec: ChainSpec, removing removed: Set<String>) -> String {
        func quoted(_ name: String) -> String {
            String(decoding: (try? JSONEncoder().encode(name)) ?? Data("\"\"".utf8), as: UTF8.self)
        }
        switch spec.form {
        case .tree:
            let entries = spec.treeEntries.filter { !removed.contains($0.source.value) }
            return "{" + entries.map { "\(quoted($0.source.value)): \(quoted($0.destination.value))" }.joined(separator: ", ") + "}"
        case .array, .single, .empty:
            return "[" + spec.arrayEntries.map(\.value).filter { !removed.contains($0) }.map(quoted).joined(separator: ", ") + "]"
        }
    }

    /// The bytes of the regular files under `url` (or of `url` itself), symbolic links not followed.
    static func size(of url: URL) -> Int {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        if let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true { return values.fileSize ?? 0 }
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys, options: []) else { return 0 }
        var total = 0
        var count = 0
        for case let file as URL in walker {
            count += 1
            if count > 100_000 { break }
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            total += values.fileSize ?? 0
        }
        return total
    }
}
