import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import Foundation

/// What kind of migration a step is.
public enum MigrationKind: String, Sendable, Hashable, Codable {
    /// The versions are hash-equivalent: Core Data runs no migration.
    case none
    /// Core Data infers the mapping (in-place SQL for SQLite stores).
    case lightweight
    /// A mapping model is used, or would be needed.
    case heavyweight
    /// A version's model could not be read, so the step cannot be classified.
    case unknown
}

/// A mapping model known to cover a step.
public struct StepMappingModel: Sendable, Hashable, Codable {
    /// Display path of the `.xcmappingmodel`.
    public var path: String
    /// Custom `NSEntityMigrationPolicy` classes it names.
    public var policies: [String]

    public init(path: String, policies: [String] = []) {
        self.path = path
        self.policies = policies
    }
}

/// The classification of one step (or direct jump).
public struct StepClassification: Sendable, Hashable, Codable {
    public var migration: MigrationKind
    /// Whether Core Data could infer the mapping; nil when unknown.
    public var inferable: Bool?
    /// True when the inferred mapping drops data (removed or replaced entities and properties).
    public var losesData: Bool?
    public var mappingModel: StepMappingModel?
    public var changes: [ModelChange]
    /// The checks that decide an inferred step flagged "could fail validation" on a real store;
    /// nil when there are none (or no inferred migration runs).
    public var validation: [ValidationCheck]?

    public init(migration: MigrationKind, inferable: Bool?, losesData: Bool?, mappingModel: StepMappingModel?, changes: [ModelChange],
                validation: [ValidationCheck]? = nil) {
        self.migration = migration
        self.inferable = inferable
        self.losesData = losesData
        self.mappingModel = mappingModel
        self.changes = changes
        self.validation = validation
    }
}

/// Classifies steps the way CoreStore decides at runtime:
/// equal entity version hashes (Core Data's own, §1.7) → none; a mapping model for exactly this step → heavyweight;
/// else inferable → lightweight; else heavyweight that needs a mapping model (CP201).
public struct StepClassifier: Sendable {
    public let bundle: ModelBundle
    /// Mapping models by step.
    public let mappingModels: [StepKey: StepMappingModel]

    /// Every readable version with its inheritance resolved, by name: each version takes part in
    /// up to three inferences (its step in, its step out, its direct jump), the target in all.
    package let resolved: [String: (version: ModelVersion, view: ResolvedView)]
    /// Every version's Core Data version hashes, by name.
    public let hashes: [String: VersionHashes]

    /// `versionHashes`: the bundle's version hashes when the caller has them already.
    public init(bundle: ModelBundle, mappingModels: [StepKey: StepMappingModel] = [:], versionHashes: [VersionHashes]? = nil) {
        self.bundle = bundle
        self.mappingModels = mappingModels
        var resolved: [String: (version: ModelVersion, view: ResolvedView)] = [:]
        var firsts: [ModelVersion] = []
        var seen: Set<String> = []
        for version in bundle.versions where seen.insert(version.name).inserted && version.model != nil { firsts.append(version) }
        // Resolved on every core, in runs of consecutive versions: within a run each version
        // keeps the entity contents and hash inputs its predecessor has equal (kept for the
        // validate budget: Benchmarks/RESULTS.md, "Stop 35").
        let runs = Swift.max(1, Swift.min(firsts.count, 4 * ProcessInfo.processInfo.activeProcessorCount))
        let bounds = (0...runs).map { $0 * firsts.count / runs }
        let views = Parallel.map(Array(zip(bounds, bounds.dropFirst()))) { [firsts] range -> [ResolvedView?] in
            var previous: ResolvedView?
            return firsts[range.0..<range.1].map { version in
                let view = version.model.map { ResolvedView($0, previous: previous) }
                previous = view ?? previous
                return view
            }
        }.flatMap { $0 }
        for (version, view) in zip(firsts, views) {
            if let view { resolved[version.name] = (version, view) }
        }
        self.resolved = resolved
        var hashes: [String: VersionHashes] = [:]
        for version in versionHashes ?? bundle.versionHashes(withProperties: false) where hashes[version.version] == nil { hashes[version.version] = version }
        self.hashes = hashes
    }

    /// Whether Core Data runs no migration between the two versions: exactly when their entity
    /// hash dictionaries are equal (§1.7). Nil when either version has no hashes (CP122).
    public func hashesEqual(from: String, to: String) -> Bool? {
        guard let source = hashes[from]?.hashes, let destination = hashes[to]?.hashes else { return nil }
        return source.entities == destination.entities
    }

    /// The inferred mapping between two versions, or nil when either cannot be read.
    public func infer(from: String, to: String) -> InferredMapping? {
        guard let source = resolved[from], let destination = resolved[to] else { return nil }
        return MappingInference.infer(from: source.view, to: destination.view,
                                      sourceFile: source.version.path, destinationFile: destination.version.path)
    }

    public func classify(from: String, to: String) -> (StepClassification, InferredMapping?) {
        let mapping = mappingModels[StepKey(from: from, to: to)]
        guard let inferred = infer(from: from, to: to) else {
            return (StepClassification(migration: mapping == nil ? .unknown : .heavyweight, inferable: nil, losesData: nil,
                                       mappingModel: mapping, changes: []), nil)
        }
        let kind: MigrationKind
        // Hashes decide; the field comparison only for a version without hashes (CP122).
        if hashesEqual(from: from, to: to) ?? !inferred.needsMigration {
            kind = .none
        } else if mapping != nil || !inferred.isInferable {
            kind = .heavyweight
        } else {
            kind = .lightweight
        }
        let losesData = inferred.changes.contains { $0.verdict == .dataLoss }
        var changes = inferred.changes
        if kind != .none, !inferred.needsMigration { changes += hashOnlyChanges(from: from, to: to) }
        // Equal hashes: no migration runs, so nothing the builder would flag matters.
        return (StepClassification(migration: kind, inferable: inferred.isInferable, losesData: kind == .none ? false : losesData,
                                   mappingModel: kind == .none ? nil : mapping, changes: changes,
                                   validation: kind == .lightweight && !inferred.validation.isEmpty ? inferred.validation : nil), inferred)
    }

    /// The hash inputs that moved when the field comparison saw no migrating change: the
    /// step still migrates (lightweight), because Core Data compares hashes.
    func hashOnlyChanges(from: String, to: String) -> [ModelChange] {
        guard let source = resolved[from], let destination = resolved[to],
              let old = source.version.model, let new = destination.version.model,
              let oldHashes = hashes[from]?.hashes, let newHashes = hashes[to]?.hashes else { return [] }
        return HashDifference.changes(from: old, oldHashes.entities, to: new, newHashes.entities).map { change in
            ModelChange(.hashInputChanged, entity: change.entity,
                        detail: "\(change) moves the entity's version hash, so Core Data migrates",
                        verdict: .inferable, rule: "hash-input-changed", basis: .coreDataBuilder)
        }
    }

    /// The findings of a classified chain step, located at the step in the spec (`stepLocation`)
    /// and at the model elements the changes concern; `customStage` when the app runs the step
    /// as a custom migration stage whose code runs before it (a `willMigrate`).
    public static func findings(for step: StepClassification, from: String, to: String,
                                stepLocation: SourceLocation, customStage: Bool = false) -> [Diagnostic] {
        let versions = [from, to]
        /// A change's finding; in a custom stage, a rule may say what the stage's code can do first.
        func finding(_ code: DiagnosticCode, _ change: ModelChange, _ message: (String) -> String) -> Diagnostic {
            let first = customStage ? InferenceRules.inCustomStage(change) : nil
            return Diagnostic(code, severity: first == nil ? nil : .note, message(change.detail + (first ?? "")),
                              at: change.location ?? stepLocation, versions: versions)
        }
        switch step.migration {
        case .unknown:
            return []
        case .none:
            // Equal entity hashes: no migration runs, but a change outside the hash can still
            // deserve a look (CP210: a value transformer change).
            return step.changes.compactMap { change -> Diagnostic? in
                guard let code = change.code, change.verdict == .noMigration else { return nil }
                return finding(code, change) { "\($0) ('\(from)' → '\(to)')" }
            }
        case .heavyweight where step.mappingModel != nil:
            guard step.inferable == true, let mappingModel = step.mappingModel else { return [] }
            return [unneededMappingModelFinding(mappingModel, from: from, to: to)]
        case .heavyweight:
            // One finding per cause, naming it and the consequence; no separate "not inferable" finding.
            var findings: [Diagnostic] = []
            for change in step.changes {
                if change.verdict == .blocksInference {
                    findings.append(finding(change.code ?? .notInferable, change) { "\($0); no mapping model covers '\(from)' → '\(to)'" })
                } else if let code = change.code, change.verdict != .noMigration {
                    findings.append(finding(code, change) { "\($0) ('\(from)' → '\(to)')" })
                }
            }
            return findings
        case .lightweight:
            var findings = step.changes.compactMap { change -> Diagnostic? in
                guard let code = change.code, change.verdict != .blocksInference, change.verdict != .noMigration else { return nil }
                return finding(code, change) { "\($0) ('\(from)' → '\(to)')" }
            }
            if let checks = step.validation, !checks.isEmpty {
                findings.append(validationFinding(checks, from: from, to: to, at: stepLocation))
            }
            return findings
        }
    }
}
