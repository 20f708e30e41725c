import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
import Foundation

extension PlanOutcome {
    /// The multi-pass plan of the step `from` → `to` of the plan's bundle (reference §8): the
    /// entity mappings of the mapping model(s) that match the pair, or without one the ones the
    /// user will need. `rows`: per source entity, from a store (`store` names it in the report);
    /// `maxMemoryBytes`: the budget passes are packed under.
    package func passes(from: String, to: String, rows: [String: PassRows]?, store: String?, maxMemoryBytes: Int?) -> Result<PassReport, PassFailure> {
        let bundle: ModelBundle, display: String
        switch versionPair(from: from, to: to) {
        case .failure(let failure): return .failure(PassFailure(failure.diagnostics))
        case .success(let found): (bundle, display) = found
        }
        guard let sourceVersion = bundle.version(named: from), let source = sourceVersion.model,
              let destination = bundle.version(named: to)?.model else {
            let problems = report.diagnostics.filter { $0.code.unusableInput }
            return .failure(PassFailure(problems.isEmpty
                ? [Diagnostic(.unreadableModelBundle, "a version of '\(from)' → '\(to)' could not be read", at: SourceLocation(file: display), versions: [from, to])]
                : problems))
        }
        let pair = StepKey(from: from, to: to)
        let location = SourceLocation(file: display)
        let migration = self.migration(of: pair, bundle: bundle)
        switch migration {
        case .heavyweight:
            break
        case .lightweight, .none:
            return .failure(PassFailure([.noPassesNeeded(equalHashes: migration == .none, from: from, to: to, at: location)]))
        case .unknown:
            return .failure(PassFailure([Diagnostic(.unreadableModelBundle, "'\(from)' → '\(to)' cannot be classified: a version's model could not be read",
                                                    at: location, versions: [from, to])]))
        }
        let models = (matchedMappingModels[pair] ?? []).sorted { VersionOrder.areInIncreasingOrder($0.name, $1.name) }
        let mappings = models.isEmpty ? PassPlanner.defaultEntityMappings(source: source, destination: destination) : models.flatMap(PassEntityMapping.of)
        guard mappings.contains(where: { $0.destination.map { destination.entity(named: $0) != nil } ?? false }) else {
            return .failure(PassFailure([.noEntityMappings(from: from, to: to, mappingModels: models.map(\.name), at: location)]))
        }
        let plan = PassPlanner.plan(source: source, destination: destination, mappings: mappings, rows: rows, maxMemoryBytes: maxMemoryBytes)
        var findings: [Diagnostic] = []
        let versions = [from, to]
        findings += Diagnostic.unmappedEntities(plan, source: source, sourcePath: sourceVersion.path, from: from, to: to)
        if !models.isEmpty {
            findings += MappedTwiceCheck.check(PassSet(from: from, to: to, source: source, destination: destination,
                                                       sourcePath: sourceVersion.path, models: models))
        }
        if let budget = maxMemoryBytes {
            for (number, pass) in plan.passes.enumerated() {
                guard let bytes = pass.memoryBytes, bytes > budget else { continue }
                findings.append(.heavyweightMemory(pass: number + 1, pass, bytes: bytes, budget: budget,
                                                   at: store.map { SourceLocation(file: $0) } ?? location, versions: versions))
            }
        }
        return .success(PassReport(bundle: display, bundleName: bundle.name, from: from, to: to, mappingModels: models.map(\.name), plan: plan,
                                   maxMemoryBytes: maxMemoryBytes, store: store, diagnostics: findings.sorted()))
    }

    /// How `pair` migrates: a chain step's classification from the plan (the planner classified
    /// it already, with the same hashes and mapping models), else the pair classified on its own.
    func migration(of pair: StepKey, bundle: ModelBundle) -> MigrationKind {
        if let step = report.steps.first(where: { $0.from == pair.from && $0.to == pair.to }), let migration = step.migration {
            return migration
        }
        let classifier = StepClassifier(bundle: bundle, mappingModels: mappingModels[pair].map { [pair: $0] } ?? [:])
        return classifier.classify(from: pair.from, to: pair.to).0.migration
    }
}
