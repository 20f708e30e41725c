import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
import Foundation

/// A stage plan and the chain report it was made from.
public struct StagePlanOutcome: Sendable {
    /// Nil when there is nothing to plan: no model, no target, or unusable input.
    public var plan: StagePlan?
    /// The chain's plan (its findings explain a missing stage plan).
    public var report: ChainReport
    /// Why there is no stage plan, when there is none.
    public var problem: String?
    /// The app passes `NSPersistentStoreDeferredLightweightMigrationOptionKey` (`--deferred`, or
    /// `deferredLightweightMigration: true` in the spec or configuration).
    public var deferring = false
    /// The checksums the plan used (given, or computed from the classifier's hashes).
    public var identities: VersionIdentities? = nil
    /// The model bundle's directory, when known (`--write-models` writes into it).
    public var bundleURL: URL? = nil
    /// The chain's order (the spec's versions, oldest first).
    public var order: [String] = []
    /// The spec as read; nil when the input is a bundle (its order is the bundle's).
    public var spec: ChainSpec? = nil
}

extension PlanOutcome {
    /// Plans staged migration for the input at `url` (a spec with a model, or a bundle), from
    /// a plan made by a planner that keeps its classifications.
    /// `identities` gives each version's checksum and entity hashes (a compiled model's
    /// `VersionInfo.plist`, or a hash engine); nil when none are known.
    /// `marked`: more steps to run as custom stages (`.chainplan.yml`'s `stages`).
    /// `computingIdentities`: when `identities` gives none, the checksums come from the hashes
    /// the step classifier computes (Core Data's algorithm, no second hashing of the bundle).
    package func stagePlan(inputAt url: URL, identities: (ModelBundle) -> VersionIdentities?, computingIdentities: Bool = false,
                           marked extra: [StepKey] = []) -> StagePlanOutcome {
        let outcome = self
        let report = outcome.report
        guard let bundle = outcome.bundle else {
            return StagePlanOutcome(plan: nil, report: report, problem: "no model bundle was read: a stage plan needs the models")
        }
        guard let target = report.target else {
            return StagePlanOutcome(plan: nil, report: report, problem: "the chain has no single target version")
        }
        let order = StagePlanOutcome.migrationOrder(report, bundle: bundle, target: target)
        let marked = Set((outcome.spec?.customStages ?? []).map(\.value) + extra)
        var synthesis = StageSynthesis(bundle: bundle, order: order, mappingModels: outcome.mappingModels,
                                       identities: identities(bundle), marked: marked, location: SourceLocation(file: report.spec))
        synthesis.computesIdentities = computingIdentities
        synthesis.configuredMarks = Set(extra)
        for hint in outcome.spec?.customStages ?? [] where synthesis.markedAt[hint.value] == nil {
            synthesis.markedAt[hint.value] = hint.location
        }
        // The chain's plan classified every step and direct jump already: its classifier (the
        // versions hashed once) and its results serve the stage plan too.
        let classifier = outcome.classified?.classifier ?? StepClassifier(bundle: bundle, mappingModels: outcome.mappingModels)
        let used = synthesis.identities ?? (computingIdentities ? synthesis.computedIdentities(classifier) : nil)
        var bundleURL: URL?
        if ModelBundleLocator.isBundle(url) {
            bundleURL = url
        } else if let model = outcome.spec?.model {
            bundleURL = URL(fileURLWithPath: model.value, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        var plan = synthesis.plan(classifier: classifier, classified: outcome.classified?.results ?? [:])
        if let given = synthesis.identities, computingIdentities {
            let mismatches = CompiledChecksumCheck.findings(compiled: given, computed: synthesis.computedIdentities(classifier),
                                                            order: order, location: SourceLocation(file: report.spec))
            if !mismatches.isEmpty { plan.findings = (plan.findings + mismatches).sorted() }
        }
        return StagePlanOutcome(plan: plan, report: report, problem: nil, deferring: outcome.deferring,
                                identities: used, bundleURL: bundleURL, order: order,
                                spec: ModelBundleLocator.isBundle(url) ? nil : outcome.spec)
    }

    /// What `StageListAudit` needs to audit a user's stage list against the chain.
    package func stageAuditInput(identities: VersionIdentities, order: [String]) -> StageListAudit.Input? {
        guard let bundle else { return nil }
        return StageListAudit.Input(order: order, identities: identities, bundle: bundle, mappingModels: mappingModels)
    }
}

extension StagePlanOutcome {
    /// Staged migration is linear: every version that reaches the target, farthest first (ties
    /// in bundle order), the target last. For an array chain this is the chain.
    static func migrationOrder(_ report: ChainReport, bundle: ModelBundle, target: String) -> [String] {
        let bundleOrder = Dictionary(bundle.versionNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let reaching = report.paths.compactMap { path -> (String, Int)? in
            guard path.reachable, let length = path.length, path.start != target else { return nil }
            return (path.start, length)
        }
        let sorted = reaching.sorted { a, b in
            a.1 != b.1 ? a.1 > b.1 : (bundleOrder[a.0] ?? Int.max, a.0) < (bundleOrder[b.0] ?? Int.max, b.0)
        }
        return sorted.map(\.0) + [target]
    }
}
