import ChainPlanCore
import ChainPlanGraph
import ChainPlanHashing
import ChainPlanInference
import ChainPlanReaders
import Foundation

/// Mapping models found for a plan, and what they cover.
struct LoadedMappingModels {
    var models: [MappingModel] = []
    var diagnostics: [Diagnostic] = []
    /// Steps the spec's `mappings` key assigns explicitly, by mapping model path.
    var explicit: [String: (StepKey, SourceLocation)] = [:]
    /// Each model's folder, by mapping model path.
    var folders: [String: URL] = [:]
}

/// The outcome of matching loaded mapping models against the chain.
struct MatchedMappingModels {
    var byStep: [StepKey: StepMappingModel] = [:]
    var matches: [MappingMatch] = []
    var diagnostics: [Diagnostic] = []

    /// Every mapping model that is not stale, by the pair it matches, in the order read.
    var modelsByPair: [StepKey: [MappingModel]] {
        var result: [StepKey: [MappingModel]] = [:]
        for match in matches where !match.isStale { result[StepKey(from: match.from, to: match.to), default: []].append(match.mappingModel) }
        return result
    }

    init() {}

    init(_ loaded: LoadedMappingModels, bundle: ModelBundle, steps: [StepKey], versionHashes: [VersionHashes]? = nil) {
        let result = MappingMatcher.match(loaded.models, bundle: bundle, steps: steps.map { ($0.from, $0.to) }, versionHashes: versionHashes)
        matches = result.matches
        diagnostics = result.diagnostics
        for match in result.matches where !match.isStale {
            let key = StepKey(from: match.from, to: match.to)
            if byStep[key] == nil {
                byStep[key] = StepMappingModel(path: match.mappingModel.path, policies: match.mappingModel.customPolicies)
            }
        }
        // A mapping model the spec assigns to a step must be the one that covers it.
        let chainSteps = Set(steps)
        for (path, (step, location)) in loaded.explicit.sorted(by: { $0.key < $1.key }) {
            // A step that is not in the chain is CP121 at its key (`mappingEntriesOffChain`).
            guard chainSteps.contains(step) else { continue }
            let match = result.matches.first { $0.mappingModel.path == path }
            if let match, !match.isStale, match.from == step.from, match.to == step.to { continue }
            diagnostics.append(.assignedMappingModelMismatch(path: path, from: step.from, to: step.to, match: match, at: location))
        }
    }
}

extension ProjectLoader {
    func mappingURL(_ entry: ChainSpec.MappingEntry, specDirectory: URL) -> URL {
        URL(fileURLWithPath: entry.path, relativeTo: specDirectory).standardizedFileURL
    }

    /// CP120 at the path when a `mappings` path is outside the spec's folder, missing, or not a folder.
    /// Checked with or without a `model`.
    func mappingPathProblem(_ entry: ChainSpec.MappingEntry, specDirectory: URL) -> Diagnostic? {
        let url = mappingURL(entry, specDirectory: specDirectory)
        let versions = [entry.from, entry.to]
        if let problem = confinementProblem(url, specDirectory: specDirectory, what: "mapping model") {
            return Diagnostic(.unreadableMappingModel, problem, at: entry.pathLocation, versions: versions)
        }
        let message: String
        switch FileAccess.kind(at: url.path) {
        case .success(.directory):
            return nil
        case .failure(.missing):
            message = "the mapping model '\(entry.path)' does not exist"
        case .failure(let problem):
            message = "cannot read the mapping model: \(problem.description)"
        case .success(.regular):
            message = "the mapping model '\(entry.path)' is a file, not an .xcmappingmodel folder"
        case .success(.other(let kind)):
            message = "the mapping model '\(entry.path)' is \(kind), not an .xcmappingmodel folder"
        }
        return Diagnostic(.unreadableMappingModel, message, at: entry.pathLocation, versions: versions)
    }

    /// Reads the mapping models below `directory` (bounded depth) and those the spec names.
    func loadMappingModels(under directory: URL, spec: ChainSpec, specDirectory: URL) -> LoadedMappingModels {
        var loaded = LoadedMappingModels()
        // 1. Which files to read, each once (by canonical path), in a fixed order.
        struct Pending: Sendable {
            var url: URL
            var display: String
            var location: SourceLocation?
        }
        var pending: [Pending] = []
        var seen: Set<String> = []
        func enqueue(_ url: URL, location: SourceLocation?) -> String {
            let canonical = (try? FileAccess.canonicalPath(url.path).get()) ?? url.standardizedFileURL.path
            let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
            if seen.insert(canonical).inserted { pending.append(Pending(url: url, display: display, location: location)) }
            return display
        }
        for entry in spec.mappings {
            let url = mappingURL(entry, specDirectory: specDirectory)
            if let problem = mappingPathProblem(entry, specDirectory: specDirectory) {
                loaded.diagnostics.append(problem)
                continue
            }
            let display = enqueue(url, location: entry.location)
            loaded.explicit[display] = (StepKey(from: entry.from, to: entry.to), entry.location)
        }
        for url in MappingModelDiscovery.find(in: directory).urls {
            _ = enqueue(url, location: nil)
        }
        // 2. Read them on every core (each embeds two archived models of up to megabytes).
        let reads = Parallel.map(pending) { MappingModelReader.read(at: $0.url, displayPath: $0.display) }
        // 3. Combine in the fixed order; a finding without a place points at the spec's entry.
        for (item, (model, diagnostics)) in zip(pending, reads) {
            loaded.diagnostics += diagnostics.map { diagnostic in
                guard let location = item.location, diagnostic.location == nil else { return diagnostic }
                var located = diagnostic
                located.location = location
                return located
            }
            if let model {
                loaded.models.append(model)
                loaded.folders[model.path] = item.url
            }
        }
        return loaded
    }
}

extension ChainSpec {
    /// CP121 at the key for every `mappings` step that is not a step of the chain: the model
    /// assigned to it covers no step (a typo, or a step removed from the chain).
    func mappingEntriesOffChain(_ graph: ChainGraph) -> [Diagnostic] {
        let steps = Set(graph.edges.map { StepKey(from: graph.versions[$0.from], to: graph.versions[$0.to]) })
        return mappings.compactMap { entry in
            guard !steps.contains(StepKey(from: entry.from, to: entry.to)) else { return nil }
            let why: String
            if graph.index[entry.from] == nil {
                why = "'\(entry.from)' is not a version of the chain"
            } else if graph.index[entry.to] == nil {
                why = "'\(entry.to)' is not a version of the chain"
            } else if let source = graph.index[entry.from], graph.successor[source] >= 0 {
                why = "the chain goes '\(entry.from)' → '\(graph.versions[graph.successor[source]])'"
            } else {
                why = "'\(entry.from)' has no next version in the chain"
            }
            return .mappingEntryOffChain(path: entry.path, from: entry.from, to: entry.to, why: why, at: entry.location)
        }
    }
}
