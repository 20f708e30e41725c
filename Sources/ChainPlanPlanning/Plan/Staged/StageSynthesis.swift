import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
/// Synthesises a staged migration plan (reference §6.2) from the chain's versions in migration
/// order: custom stages where a step is not inferable, needs data work or is marked in the spec;
/// lightweight stages for the gaps; versions with equal checksums listed once; every jump the
/// runtime executes classified, and a handler-less custom stage inserted where a jump fails or
/// drops data that stepping keeps; repeated until stable. Then the §6.1 proof and the per-start
/// simulation.
package struct StageSynthesis {
    package var bundle: ModelBundle
    /// The versions oldest first; the last is the app model.
    package var order: [String]
    package var mappingModels: [StepKey: StepMappingModel]
    /// Checksums from a compiled model or a hash engine; nil: none known (plans then list no
    /// checksums and merge only versions chainplan finds hash-equivalent).
    package var identities: VersionIdentities?
    /// When `identities` is nil: take every version's checksum from the hashes the step
    /// classifier computes anyway (Core Data's algorithm, verified versions only) instead of
    /// hashing the bundle a second time.
    package var computesIdentities = false
    /// Steps the user marks as custom stages (`stages` in the spec).
    package var marked: Set<StepKey>
    /// Where the spec writes each marked step (CP515 points there); others are located at `location`.
    package var markedAt: [StepKey: SourceLocation] = [:]
    /// The marked steps that come from the rule configuration's `stages`.
    package var configuredMarks: Set<StepKey> = []
    /// Where findings about the plan are located (the spec).
    package var location: SourceLocation

    package init(bundle: ModelBundle, order: [String], mappingModels: [StepKey: StepMappingModel] = [:],
                identities: VersionIdentities? = nil, marked: Set<StepKey> = [], location: SourceLocation) {
        self.bundle = bundle
        self.order = order
        self.mappingModels = mappingModels
        self.identities = identities
        self.marked = marked
        self.location = location
    }

    /// A custom step of the plan: unit `step` → `step + 1`.
    struct Custom {
        var reason: String
        var handlers: Bool
        var mappingModel: String?
        var work: [DataWork]
    }

    package func plan() -> StagePlan { plan(classifier: StepClassifier(bundle: bundle, mappingModels: mappingModels)) }

    /// The plan, judged by `classifier` (made for `bundle` and `mappingModels`).
    package func plan(classifier: StepClassifier) -> StagePlan { plan(classifier: classifier, classified: [:]) }

    /// `classified`: pairs the chain's plan classified with the same classifier (not classified again).
    func plan(classifier: StepClassifier, classified: [StepKey: ClassifiedPairs.Result]) -> StagePlan {
        let identities = self.identities ?? (computesIdentities ? self.computedIdentities(classifier) : nil)
        // 1. Units: versions listed once per checksum (or hash-equivalent run without checksums).
        var units: [[String]] = []
        var unitOfKey: [String: Int] = [:]
        var merged: [MergedVersion] = []
        var findings: [Diagnostic] = []
        for version in order {
            if let checksum = identities?.byVersion[version]?.checksum {
                if let unit = unitOfKey[checksum] {
                    // The app model keeps its own name: the unit is listed as it.
                    if version == order.last { units[unit].insert(version, at: 0) } else { units[unit].append(version) }
                    continue
                }
                unitOfKey[checksum] = units.count
            } else if identities == nil, let previous = units.last?.last,
                      classifier.classify(from: previous, to: version).0.migration == .none {
                if version == order.last { units[units.count - 1].insert(version, at: 0) } else { units[units.count - 1].append(version) }
                continue
            }
            units.append([version])
        }
        for unit in units where unit.count > 1 {
            for version in unit.dropFirst() {
                merged.append(MergedVersion(version: version, listedAs: unit[0]))
                findings.append(.identicalChecksums(version, listedAs: unit[0], byChecksum: identities != nil, at: location))
            }
        }
        let representatives = units.map { $0[0] }
        let judge = JumpJudge(classifier: classifier, order: representatives, classified: classified)

        // 2. Custom steps: not inferable, data work, or marked.
        var customs: [Int: Custom] = [:]
        for step in 0..<max(0, units.count - 1) {
            let from = representatives[step], to = representatives[step + 1]
            let (classification, mapping) = classifier.classify(from: from, to: to)
            judge.record(from, to, classification, mapping: mapping)
            let markedStep = units[step].lazy.flatMap { a in units[step + 1].lazy.map { StepKey(from: a, to: $0) } }.first { marked.contains($0) }
            let isMarked = markedStep != nil
            let work = Self.dataWork(classification.changes, mapping: mapping)
            if classification.migration == .heavyweight, let model = classification.mappingModel {
                customs[step] = Custom(reason: "the mapping model '\(model.path)' migrates this step", handlers: isMarked, mappingModel: model.path, work: work)
            } else if classification.migration == .heavyweight || classification.migration == .unknown {
                let blocking = classification.changes.filter { $0.verdict == .blocksInference }.map(\.detail)
                let why = classification.migration == .unknown ? "a version cannot be read" : blocking.prefix(3).joined(separator: "; ")
                customs[step] = Custom(reason: "not inferable and no mapping model: \(why)", handlers: true, mappingModel: nil, work: work)
                findings.append(.stageNotInferable(from: from, to: to, why: why, at: location))
            } else if !work.isEmpty {
                customs[step] = Custom(reason: "data work: " + work.map(\.detail).joined(separator: "; "), handlers: true, mappingModel: nil, work: work)
            } else if isMarked {
                let copies = Self.copyWork(bundle: bundle, current: from, next: to, following: step + 2 < units.count ? representatives[step + 2] : nil)
                    + Self.fillWork(bundle: bundle, current: from, next: to)
                // Where the mark is written: a SwiftData plan's `.custom` stage is in Swift source.
                let written = markedStep.flatMap { markedAt[$0] }
                let origin = written == nil && markedStep.map(configuredMarks.contains) == true ? "the configuration"
                    : written?.file.hasSuffix(".swift") == true ? "the migration plan" : "the spec"
                let reason = copies.isEmpty ? "marked as a custom stage in \(origin)"
                    : "marked as a custom stage in \(origin); data work: " + copies.map(\.detail).joined(separator: "; ")
                customs[step] = Custom(reason: reason, handlers: true, mappingModel: nil, work: copies)
            }
        }

        findings += StageHintCheck.findings(marked: marked, units: units, locations: markedAt, fallback: location)

        // 3–4. Lay out, simulate every start, bridge failing or lossy jumps; until stable.
        let key: (Int) -> String = { unit in identities?.byVersion[representatives[unit]]?.checksum ?? representatives[unit] }
        let unitOfName = Dictionary(representatives.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let nameOfKey = Dictionary(units.indices.map { (key($0), representatives[$0]) }, uniquingKeysWith: { first, _ in first })
        let name: (String) -> String = { nameOfKey[$0] ?? $0 }
        var layout: [(kind: MigrationStage.Kind, units: [Int], step: Int?)] = []
        for _ in 0...units.count {
            layout = Self.layout(units: units.count, customs: &customs)
            let runtime = layout.map { RuntimeStage(kind: $0.kind, keys: $0.units.map(key), hasHandlers: $0.step.flatMap { customs[$0]?.handlers } ?? false) }
            var bridge: (step: Int, custom: Custom)?
            let index = RuntimeStageIndex(runtime)
            search: for start in units.indices.dropLast() {
                let run = StageSimulation.run(store: key(start), app: key(units.count - 1), stages: runtime, index: index, version: representatives[start],
                                              checksum: nil, name: { name($0) },
                                              judge: { judge.judge(name($0), name($1)) })
                for jump in run.jumps {
                    guard let from = unitOfName[jump.from], let to = unitOfName[jump.to], to > from + 1 else { continue }
                    let judgement = judge.judge(jump.from, jump.to)
                    guard judgement.fails || !judgement.lostComparedToSteps.isEmpty, judge.steppingWorks(from: from, to: to) else { continue }
                    var y = from + 1
                    for candidate in stride(from: to - 1, to: from + 1, by: -1) {
                        let partial = judge.judge(representatives[from], representatives[candidate])
                        if !partial.fails, partial.lostComparedToSteps.isEmpty { y = candidate; break }
                    }
                    let why = judgement.fails
                        ? "fails (\(judgement.blocking.prefix(2).joined(separator: "; "))); every step migrates"
                        : "drops " + judgement.lostComparedToSteps.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + ", which stepping keeps"
                    if customs[y] == nil {
                        bridge = (y, Custom(reason: "forces stepping: the direct jump '\(jump.from)' → '\(jump.to)' \(why)",
                                            handlers: false, mappingModel: nil, work: []))
                        break search
                    }
                }
            }
            guard let (step, custom) = bridge else { break }
            customs[step] = custom
        }

        // The stages, with checksums and labels.
        var stages: [MigrationStage] = []
        for (index, entry) in layout.enumerated() {
            let versions = entry.units.map { representatives[$0] }
            let checksums = versions.compactMap { identities?.byVersion[$0]?.checksum }
            let label: String
            let stage: MigrationStage
            if entry.kind == .custom, let step = entry.step, let custom = customs[step] {
                label = "\(index + 1). \(versions[0]) → \(versions[1])"
                stage = MigrationStage(kind: .custom, versions: versions, checksums: checksums.count == 2 ? checksums : [],
                                       reason: custom.reason, label: label, handlers: custom.handlers, mappingModel: custom.mappingModel, work: custom.work)
            } else {
                let span = versions.count == 1 ? versions[0] : "\(versions.first ?? "") … \(versions.last ?? "")"
                label = "\(index + 1). \(span) (lightweight)"
                let reason = layout.count == 1 ? "every step infers: one lightweight stage (Core Data runs one direct jump)"
                    : "lightweight gap: stores here jump straight to the next stage's current model (or the app model)"
                stage = MigrationStage(kind: .lightweight, versions: versions, checksums: checksums.count == versions.count ? checksums : [],
                                       reason: reason, label: label)
            }
            stages.append(stage)
        }
        // Proof and simulation for every listed version (merged ones run as their representative).
        let runtime = layout.map { RuntimeStage(kind: $0.kind, keys: $0.units.map(key), hasHandlers: $0.step.flatMap { customs[$0]?.handlers } ?? false) }
        let appKey = units.isEmpty ? "" : key(units.count - 1)
        var starts: [StageRun] = []
        let unitOfVersion = Dictionary(units.enumerated().flatMap { unit, versions in versions.map { ($0, unit) } }, uniquingKeysWith: { first, _ in first })
        let index = RuntimeStageIndex(runtime)
        for version in order {
            if let unit = unitOfVersion[version] {
                starts.append(StageSimulation.run(store: key(unit), app: appKey, stages: runtime, index: index, version: version,
                                                  checksum: identities?.byVersion[version]?.checksum,
                                                  name: { name($0) },
                                                  judge: { judge.judge(name($0), name($1)) }))
            }
        }
        let audit = StageAudit(stages: runtime, locations: Array(repeating: location, count: runtime.count),
                               shipped: units.indices.map(key), app: appKey, known: Set(units.indices.map(key)),
                               name: { name($0) }, starts: starts, location: location)
        // A custom stage's own failing jump is the CP201 above: one cause, one finding.
        let failingSteps = Set(customs.compactMap { step, custom in custom.mappingModel == nil && custom.handlers && judge.judge(representatives[step], representatives[step + 1]).fails
            ? "\(representatives[step])\u{0}\(representatives[step + 1])" : nil })
        findings += audit.findings().filter { finding in
            !(finding.code == .stageJumpFails && finding.versions.count >= 2
              && failingSteps.contains(finding.versions.suffix(2).joined(separator: "\u{0}")))
        }
        var plan = StagePlan(stages: stages, starts: starts, appModel: order.last ?? "", modelName: bundle.name,
                             checksumSource: identities?.source, merged: merged, findings: findings.sorted())
        // Steps whose custom stage already does the copy or fill need no suggestion.
        let handled = Set(customs.compactMap { step, custom in
            custom.work.contains { $0.copy != nil || $0.fillTypes != nil } ? StepKey(from: representatives[step], to: representatives[step + 1]) : nil })
        let decompositions = StageDecomposer.suggestions(bundle: bundle, order: representatives).filter { !handled.contains(StepKey(from: $0.from, to: $0.to)) }
        plan.decompositions = decompositions.isEmpty ? nil : decompositions
        return plan
    }



    /// §6.2.2: lightweight stages for the gaps between custom steps; a gap of exactly one step
    /// between a custom next and the following custom current becomes a handler-less bridge.
    /// The identities the classifier's hashes give, in bundle order.
    func computedIdentities(_ classifier: StepClassifier) -> VersionIdentities {
        VersionIdentities(computedFrom: bundle.versionNames.compactMap { classifier.hashes[$0] }, bundlePath: bundle.path)
    }

    static func layout(units count: Int, customs: inout [Int: Custom]) -> [(kind: MigrationStage.Kind, units: [Int], step: Int?)] {
        while true {
            var stages: [(kind: MigrationStage.Kind, units: [Int], step: Int?)] = []
            var previousNext: Int?
            var bridged = false
            for step in customs.keys.sorted() {
                if let b = previousNext {
                    if step == b + 1 {
                        customs[b] = Custom(reason: "bridge: no version lies between the custom stages' next and current models", handlers: false, mappingModel: nil, work: [])
                        bridged = true
                        break
                    }
                    if step > b + 1 { stages.append((.lightweight, Array((b + 1)..<step), nil)) }
                } else if step > 0 {
                    stages.append((.lightweight, Array(0..<step), nil))
                }
                stages.append((.custom, [step, step + 1], step))
                previousNext = step + 1
            }
            if bridged { continue }
            if let b = previousNext {
                if b < count - 1 { stages.append((.lightweight, Array((b + 1)..<count), nil)) }
            } else if count > 0 {
                stages.append((.lightweight, Array(0..<count), nil))
            }
            return stages
        }
    }

    /// The data a step's handlers must move: attributes that become relationships or entities
    /// (CP211), likely renames without a renaming identifier (CP202), and attributes made
    /// mandatory without a default (nil rows must be filled at the current model).
    static func dataWork(_ changes: [ModelChange], mapping: InferredMapping?) -> [DataWork] {
        let sourceEntity: [String: String] = Dictionary((mapping?.entityLineage ?? [:]).map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var work: [DataWork] = []
        for change in changes {
            guard change.code == .propertyKindChange || change.code == .renameWithoutIdentifier else { continue }
            let property = change.property.map { [$0] } ?? []
            // A likely rename is read under its old name at the current model (KVC on a key the
            // model lacks raises) and written under the new one at the next.
            let read = (change.sourceProperty ?? change.property).map { [$0] } ?? []
            let source = sourceEntity[change.entity] ?? change.entity
            work.append(DataWork(entity: source, nextEntity: change.kind == .entityRemoved ? nil : change.entity,
                                 read: change.kind == .entityAdded ? [] : read, write: property, detail: change.detail))
        }
        return work
    }
}
