import ChainPlanCore
import ChainPlanHistory
import ChainPlanReaders
import Foundation

/// `chainplan history`: for each version of a bundle, the commit that first added it and the
/// tags at which it was the bundle's current version: the versions real users can have.
public struct HistoryReport: Sendable, Equatable, Encodable {
    public struct Version: Sendable, Equatable, Encodable {
        public var version: String
        /// Nil for a version not committed yet (encoded as `null`).
        public var addedIn: CommitStamp?
        public var currentIn: [String]

        enum Keys: String, CodingKey { case version, addedIn, currentIn }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(version, forKey: .version)
            try container.encode(addedIn, forKey: .addedIn)
            try container.encode(currentIn, forKey: .currentIn)
        }
    }

    /// The bundle, as shown.
    public var bundle: String
    /// Oldest first: the order the versions were added, versions not committed yet last.
    public var versions: [Version]
    /// True when the clone is shallow (the oldest commits it shows stand for older ones).
    public var shallow: Bool
}

/// Why `history` could not run: the unusable-input findings.
public struct HistoryFailure: Error, Sendable {
    public var diagnostics: [Diagnostic]
}

extension ProjectLoader {
    /// The history of the bundle `url` names (a spec's `model`, or the bundle itself): each
    /// version's first commit and the tags matching `tags` (a glob, every tag when nil) at which
    /// it was current.
    package func history(inputAt url: URL, tags: String?) -> Result<HistoryReport, HistoryFailure> {
        let loaded: LoadedProject
        switch load(inputAt: url) {
        case .unusable(let report): return .failure(HistoryFailure(diagnostics: report.diagnostics))
        case .project(let project): loaded = project
        }
        guard let bundle = loaded.bundle, let bundleURL = loaded.bundleURL else {
            return .failure(HistoryFailure(diagnostics: loaded.findings.filter { $0.code.unusableInput }))
        }
        let location = SourceLocation(file: bundle.path)
        var history: VersionHistory
        switch versionHistory(of: loaded, bundle: bundle, at: bundleURL) {
        case .success(let read): history = read
        case .failure(let problem): return .failure(HistoryFailure(diagnostics: [.unreadableRevision(problem, at: location)]))
        }
        if case .failure(let problem) = history.readCurrentVersions(tags: tags) {
            return .failure(HistoryFailure(diagnostics: [.unreadableRevision(problem, at: location)]))
        }
        let order = InferredOrder.make(names: bundle.versionNames, current: nil, addedOrder: history.addedOrder)
        let versions = order.versions.map { name in
            HistoryReport.Version(version: name, addedIn: history.addedIn[name], currentIn: history.currentIn[name] ?? [])
        }
        return .success(HistoryReport(bundle: bundle.path, versions: versions, shallow: history.isShallow))
    }

    /// The history of `bundle` (at `url`): the one loading read, else read now.
    func versionHistory(of project: LoadedProject, bundle: ModelBundle, at url: URL) -> Result<VersionHistory, RevisionProblem> {
        project.history ?? VersionHistory.read(bundleAt: url, versionNames: bundle.versionNames, git: options.git)
    }
}
