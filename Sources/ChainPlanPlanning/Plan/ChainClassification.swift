import ChainPlanCore
import ChainPlanGraph
import ChainPlanHashing
import ChainPlanInference
import ChainPlanReaders
/// The direct jump from a start version to the target: what happens when the chain is not
/// used (plain Core Data, or lightweight-only staged migration infers one mapping).
public struct DirectJump: Sendable, Hashable, Codable {
    public var migration: MigrationKind
    public var inferable: Bool?
    public var losesData: Bool?
    /// Data the chain keeps but the direct jump drops: `Entity` when the jump drops the
    /// entity's rows, else `Entity.property`.
    public var lostComparedToChain: [String]
    /// The changes that block inference of the direct jump.
    public var blockingChanges: [String]
    /// What the jump does to a SQLite store's tables (reference §5, §7), when analysed.
    public var sqlite: SQLiteWork?
}

/// Classifies every step of the chain and the direct jump from every start to the target.
struct ChainClassification {
    var steps: [StepKey: StepClassification] = [:]
    var direct: [String: DirectJump] = [:]
    /// What each step does to a SQLite store's tables (reference §5, §7).
    var sqlite: [StepKey: SQLiteWork] = [:]
    /// What each analysed direct jump does to the tables (only with `deferring` and `jumpWork`).
    var jumpSQLite: [StepKey: SQLiteWork] = [:]
    var diagnostics: [Diagnostic] = []
    /// With `keeping`: the classifier, and every classified pair (step or direct jump) with its
    /// lineage, for stage planning to judge the same pairs without classifying them again.
    var kept: ClassifiedPairs?

    /// `jumpWork`: with `deferring`, analyse the direct jumps' SQLite work too.
    init(context: ChainContext, bundle: ModelBundle, mappingModels: [StepKey: StepMappingModel], deferring: Bool = false,
         jumpWork: Bool = true, versionHashes: [VersionHashes]? = nil, keeping: Bool = false, configuredStages: [StepKey] = []) {
        let graph = context.graph
        let names = graph.versions
        let classifier = StepClassifier(bundle: bundle, mappingModels: mappingModels, versionHashes: versionHashes)
        // Every inference (each step, and each direct jump of two or more steps) is independent:
        // run them all at once, then combine them in order.
        let target = context.target.version
        var directStarts: [Int] = []
        if target != nil {
            for version in 0..<graph.count {
                if case .reaches(let length) = context.reachability.fates[version], length >= 2 { directStarts.append(version) }
            }
        }
        let pairs = graph.edges.map { StepKey(from: names[$0.from], to: names[$0.to]) }
            + directStarts.map { StepKey(from: names[$0], to: names[target!]) }
        // Only the classification and the lineage outlive a worker: the inferred entity mappings
        // of a large history would otherwise all be held at once.
        let stepCount = graph.edges.count
        // Each version's store layout, derived once for every step and jump it takes part in.
        let layoutNames = Array(Set(pairs.flatMap { [$0.from, $0.to] })).sorted()
        let layouts = Dictionary(uniqueKeysWithValues: zip(layoutNames, Parallel.map(layoutNames) { name in
            classifier.resolved[name]?.version.model.map(StoreLayout.init(model:))
        }))
        // The SQLite work of a pair, the models by name from the classifier's dictionary (a
        // bundle lookup is a linear search).
        let analyse: @Sendable (StepKey, SQLiteWork.Path, Set<String>) -> SQLiteWork? = { pair, path, copied in
            guard let from = classifier.resolved[pair.from], let to = classifier.resolved[pair.to],
                  let source = from.version.model, let destination = to.version.model else { return nil }
            let known = (layouts[pair.from] ?? nil).flatMap { from in (layouts[pair.to] ?? nil).map { (from, $0) } }
            return SQLiteWork.analyze(source: source, destination: destination, layouts: known, copied: copied, path: path,
                                      deferring: deferring, resolved: (from.view.resolvedModel, to.view.resolvedModel))
        }
        let classify: @Sendable ((offset: Int, element: StepKey)) -> (StepClassification, Lineage?, SQLiteWork?) = { item in
            let (index, pair) = item
            let (classification, mapping) = classifier.classify(from: pair.from, to: pair.to)
            // A direct jump's SQLite work is read only with the option on (what a start skipping
            // the chain would leave to finish), and only by JSON output; otherwise no output shows
            // it, and a long history's direct jumps change nearly every table: not analysed then.
            let shown = index < stepCount || (deferring && jumpWork)
            guard shown, let path = SQLiteWork.path(of: classification) else { return (classification, mapping.map(Lineage.init), nil) }
            let copied = Set(mapping?.entityMappings.filter { $0.kind == .copy && $0.source == $0.destination }.compactMap(\.destination) ?? [])
            return (classification, mapping.map(Lineage.init), analyse(pair, path, copied))
        }
        let works = Parallel.map(Array(pairs.enumerated()), classify)
        var inferred: [Int: Lineage] = [:] // lineage by source version of the step
        for (index, edge) in graph.edges.enumerated() { inferred[edge.from] = works[index].1 }
        // Versions that reach the target, shorter paths first.
        var order: [(Int, Int)] = [] // (version, length)
        if target != nil {
            for version in 0..<graph.count {
                if case .reaches(let length) = context.reachability.fates[version], length > 0 { order.append((version, length)) }
            }
            order.sort { $0.1 < $1.1 }
        }
        for (index, pair) in pairs.enumerated() {
            if index < stepCount { sqlite[pair] = works[index].2 } else { jumpSQLite[pair] = works[index].2 }
        }
        let results = works.map { ($0.0, $0.1) }
        if keeping { kept = ClassifiedPairs(classifier: classifier, pairs: zip(pairs, results)) }
        var directResults: [Int: (StepClassification, Lineage?)] = [:]
        for (offset, start) in directStarts.enumerated() { directResults[start] = results[graph.edges.count + offset] }

        let customStages = context.spec.stagesRunningCodeFirst(configured: configuredStages)
        for (index, edge) in graph.edges.enumerated() {
            let key = pairs[index]
            let classification = results[index].0
            steps[key] = classification
            diagnostics += StepClassifier.findings(for: classifier.foldingInheritedChanges(classification, from: key.from, to: key.to), from: key.from, to: key.to,
                                                   stepLocation: edge.location ?? context.location(of: edge.from),
                                                   customStage: customStages.contains(key))
            diagnostics += classifier.cloudKitFindings(from: key.from, to: key.to)
        }
        // A version in a step whose hashes cannot be computed: said once (CP122).
        var reported: Set<String> = []
        for key in pairs.prefix(graph.edges.count) {
            for name in [key.from, key.to] where reported.insert(name).inserted {
                if let finding = classifier.hashes[name]?.diagnostic { diagnostics.append(finding) }
            }
        }
        // Versions that hash alike (CP123).
        let inMemory = Set(steps.filter { SQLiteWork.path(of: $0.value) == .mappingModel }.map(\.key.from))
        diagnostics += HashIdenticalVersionsCheck.findings(bundle.versions, hashes: classifier.hashes, inMemory: inMemory)
        guard let target else { return }
        // Lineage of every reachable version's data to the target, for comparing the chain with
        // the direct jump: what each direct jump loses against it, every start at once.
        var chainInferable: [Int: Bool] = [target: true]
        let identity = Self.identityLineage(of: names[target], classifier: classifier, bundle: bundle)
        let composed = Self.composedLineages(to: target, identity: identity, order: order, successor: graph.successor, steps: inferred)
        let losses = Parallel.map(order) { [directResults] version, length -> [String] in
            guard length >= 2, let directLineage = directResults[version]?.1, let chain = composed[version] else { return [] }
            return chain.lost(in: directLineage)
        }
        for ((version, length), lost) in zip(order, losses) {
            let next = graph.successor[version]
            let step = steps[StepKey(from: names[version], to: names[next])]
            let stepOK = step.map { $0.migration == .none || ($0.migration == .lightweight) } ?? false
            chainInferable[version] = stepOK && (chainInferable[next] ?? false)
            guard length >= 2 else {
                if let step { direct[names[version]] = DirectJump(step, lost: [], blocking: []) }
                continue
            }
            guard let (jump, _) = directResults[version] else { continue }
            let blocking = jump.changes.filter { $0.verdict == .blocksInference }.map(\.detail)
            direct[names[version]] = DirectJump(jump, lost: lost, blocking: blocking)
            guard chainInferable[version] == true, jump.migration != .unknown, jump.mappingModel == nil else { continue }
            let location = context.location(of: version)
            if jump.inferable == false {
                diagnostics.append(.directJumpRefused(from: names[version], to: names[target], blocking: blocking, at: location))
            } else if !lost.isEmpty {
                diagnostics.append(.directJumpDropsData(from: names[version], to: names[target], lost: lost, at: location))
            }
        }
    }
}

extension ChainClassification {
    /// The target's own lineage: each entity and stored property to itself.
    static func identityLineage(of target: String, classifier: StepClassifier, bundle: ModelBundle) -> Lineage? {
        guard let targetModel = bundle.version(named: target)?.model else { return nil }
        let identity = (classifier.resolved[target]?.view ?? ResolvedView(targetModel)).identityLineage()
        return Lineage(entities: identity.entities, properties: identity.properties)
    }

    /// Each version's lineage to the target, from the next one's (`order`: shorter paths first;
    /// `steps`: each step's lineage by its source version), memoised by version.
    static func composedLineages(to target: Int, identity: Lineage?, order: [(Int, Int)], successor: [Int],
                                 steps: [Int: Lineage]) -> [Int: Lineage] {
        var lineage: [Int: Lineage] = [:]
        lineage[target] = identity
        for (version, _) in order {
            if let stepMap = steps[version], let downstream = lineage[successor[version]] {
                lineage[version] = stepMap.followed(by: downstream)
            }
        }
        return lineage
    }
}

/// Where a version's rows and values end up: source entity → destination entity, and source
/// property → destination property, for the data that survives.
struct Lineage: Sendable {
    var entities: [String: String] = [:]
    var properties: [PropertyKey: PropertyKey] = [:]

    /// This lineage, then `next`: where the data ends up after both.
    func followed(by next: Lineage) -> Lineage {
        var composed = Lineage()
        composed.entities.reserveCapacity(entities.count)
        composed.properties.reserveCapacity(properties.count)
        for (from, to) in entities { if let final = next.entities[to] { composed.entities[from] = final } }
        for (from, to) in properties { if let final = next.properties[to] { composed.properties[from] = final } }
        return composed
    }

    /// What this lineage keeps and `other` does not take to the same place, sorted: an entity
    /// whose rows `other` drops (its properties are then not listed one by one), and each
    /// property whose values `other` drops or moves elsewhere.
    func lost(in other: Lineage) -> [String] {
        let droppedEntities = Set(entities.filter { other.entities[$0.key] != $0.value }.keys)
        var lost = Array(droppedEntities)
        for (from, to) in properties where !droppedEntities.contains(from.entity) && other.properties[from] != to {
            lost.append("\(from.entity).\(from.property)")
        }
        return lost.sorted()
    }
}

extension Lineage {
    /// A step's (or jump's) lineage.
    init(_ mapping: InferredMapping) {
        self.init(entities: mapping.entityLineage, properties: mapping.propertyLineage)
    }
}

extension DirectJump {
    init(_ classification: StepClassification, lost: [String], blocking: [String]) {
        self.init(migration: classification.migration, inferable: classification.inferable, losesData: classification.losesData,
                  lostComparedToChain: lost, blockingChanges: blocking)
    }
}
