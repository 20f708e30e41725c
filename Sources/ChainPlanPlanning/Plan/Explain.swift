import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
import Foundation

extension PlanOutcome {
    /// The inferred mapping between two versions of the plan's bundle, classified like a step
    /// (a mapping model that covers exactly this pair counts).
    package func explain(from: String, to: String) -> Result<ExplainReport, ExplainFailure> {
        let bundle: ModelBundle, display: String
        switch versionPair(from: from, to: to) {
        case .failure(let failure): return .failure(failure)
        case .success(let found): (bundle, display) = found
        }
        // A mapping model whose snapshots match exactly this pair, whether or not the pair is a
        // step of the chain: Core Data (and CoreStore) use it for a migration between them.
        let pair = StepKey(from: from, to: to)
        let classifier = StepClassifier(bundle: bundle, mappingModels: mappingModels[pair].map { [pair: $0] } ?? [:])
        let (classification, mapping) = classifier.classify(from: from, to: to)
        let findings = StepClassifier.findings(for: classifier.foldingInheritedChanges(classification, from: from, to: to), from: from, to: to,
                                               stepLocation: SourceLocation(file: display),
                                               customStage: (spec?.stagesRunningCodeFirst(configured: configuredStages) ?? Set(configuredStages)).contains(pair))
            + classifier.cloudKitFindings(from: from, to: to)
        var explained = ExplainReport(bundle: display, from: from, to: to, classification: classification,
                                   mapping: mapping, diagnostics: findings.sorted())
        if let source = bundle.version(named: from)?.model, let destination = bundle.version(named: to)?.model {
            explained.sqlite = SQLiteWork.of(classification, source: source, destination: destination, deferring: deferring)
        }
        return .success(explained)
    }
}

/// Why `explain` could not run: the unusable-input findings.
public struct ExplainFailure: Error, Sendable {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}

extension PlanOutcome {
    /// The bundle and its display path when both versions are in it; else the unusable-input
    /// findings (no bundle, or CP105 per unknown version with the nearest names).
    package func versionPair(from: String, to: String) -> Result<(bundle: ModelBundle, display: String), ExplainFailure> {
        guard let model = report.model, let bundle else {
            let problems = report.diagnostics.filter { $0.code.unusableInput }
            return .failure(ExplainFailure(problems.isEmpty
                ? [Diagnostic(.unreadableModelBundle, "the spec names no model bundle; add \"model\" or give the .xcdatamodeld itself", at: SourceLocation(file: report.spec))]
                : problems))
        }
        let display = model.bundle
        var missing: [Diagnostic] = []
        for name in [from, to] where bundle.version(named: name) == nil {
            missing.append(.unknownVersion(name, in: bundle, at: SourceLocation(file: display)))
        }
        return missing.isEmpty ? .success((bundle, display)) : .failure(ExplainFailure(missing))
    }
}
