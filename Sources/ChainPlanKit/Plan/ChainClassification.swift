/// The direct jump from a start version to the target: what happens when the chain is not
/// used (plain Core Data, or lightweight-only staged migration infers one mapping).
public struct DirectJump: Sendable, Hashable, Codable {
    public var migration: MigrationKind
    public var inferable: Bool?
    public var losesData: Bool?
    /// Data the chain keeps but the direct jump drops, as `Entity.property`.
    public var lostComparedToChain: [String]
    /// The changes that block inference of the direct jump.
    public var blockingChanges: [String]
}

/// Classifies every step of the chain and the direct jump from every start to the target.
struct ChainClassification {
    var steps: [StepKey: StepClassification] = [:]
    var direct: [String: DirectJump] = [:]
    var diagnostics: [Diagnostic] = []

    init(context: ChainContext, bundle: ModelBundle, mappingModels: [StepKey: StepMappingModel]) {
        let graph = context.graph
        let names = graph.versions
        let classifier = StepClassifier(bundle: bundle, mappingModels: mappingModels)
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
        // Only the classification and the property lineage outlive a worker: the inferred entity
        // mappings of a large history would otherwise all be held at once.
        let results = Parallel.map(pairs) { pair -> (StepClassification, [PropertyKey: PropertyKey]?) in
            let (classification, mapping) = classifier.classify(from: pair.from, to: pair.to)
            return (classification, mapping?.propertyLineage)
        }
        var directResults: [Int: (StepClassification, [PropertyKey: PropertyKey]?)] = [:]
        for (offset, start) in directStarts.enumerated() { directResults[start] = results[graph.edges.count + offset] }

        var inferred: [Int: [PropertyKey: PropertyKey]] = [:] // property lineage by source version of the step
        for (index, edge) in graph.edges.enumerated() {
            let key = pairs[index]
            let (classification, lineage) = results[index]
            steps[key] = classification
            inferred[edge.from] = lineage
            diagnostics += StepClassifier.findings(for: classification, from: key.from, to: key.to,
                                                   stepLocation: edge.location ?? context.location(of: edge.from))
        }
        guard let target else { return }
        // Lineage of every reachable version's data to the target, composed backwards from the
        // target once (memoised by version), for comparing the chain with the direct jump.
        var propertyLineage: [Int: [PropertyKey: PropertyKey]] = [:]
        var chainInferable: [Int: Bool] = [target: true]
        var order: [(Int, Int)] = [] // (version, length)
        for version in 0..<graph.count {
            if case .reaches(let length) = context.reachability.fates[version], length > 0 { order.append((version, length)) }
        }
        order.sort { $0.1 < $1.1 }
        if let targetModel = bundle.version(named: names[target])?.model {
            var identity: [PropertyKey: PropertyKey] = [:]
            for entity in ResolvedView(targetModel).entities {
                for attribute in entity.attributes where !attribute.isTransient {
                    identity[PropertyKey(entity.entity.name, attribute.name)] = PropertyKey(entity.entity.name, attribute.name)
                }
                for relationship in entity.relationships where !relationship.isTransient {
                    identity[PropertyKey(entity.entity.name, relationship.name)] = PropertyKey(entity.entity.name, relationship.name)
                }
            }
            propertyLineage[target] = identity
        }
        for (version, length) in order {
            let next = graph.successor[version]
            let step = steps[StepKey(from: names[version], to: names[next])]
            let stepOK = step.map { $0.migration == .none || ($0.migration == .lightweight) } ?? false
            chainInferable[version] = stepOK && (chainInferable[next] ?? false)
            if let stepMap = inferred[version], let downstream = propertyLineage[next] {
                var composed: [PropertyKey: PropertyKey] = [:]
                for (from, to) in stepMap { if let final = downstream[to] { composed[from] = final } }
                propertyLineage[version] = composed
            }
            guard length >= 2 else {
                if let step { direct[names[version]] = DirectJump(step, lost: [], blocking: []) }
                continue
            }
            guard let (jump, directLineage) = directResults[version] else { continue }
            var lost: [String] = []
            if let directLineage, let chained = propertyLineage[version] {
                for (from, to) in chained where directLineage[from] != to {
                    lost.append("\(from.entity).\(from.property)")
                }
                lost.sort()
            }
            let blocking = jump.changes.filter { $0.verdict == .blocksInference }.map(\.detail)
            direct[names[version]] = DirectJump(jump, lost: lost, blocking: blocking)
            guard chainInferable[version] == true, jump.migration != .unknown, jump.mappingModel == nil else { continue }
            let location = context.location(of: version)
            if jump.inferable == false {
                diagnostics.append(Diagnostic(.cp207,
                    "every step from '\(names[version])' to '\(names[target])' infers, but the direct jump does not: "
                        + blocking.prefix(3).joined(separator: "; ") + (blocking.count > 3 ? "; and \(blocking.count - 3) more" : "")
                        + " (Core Data without the chain, or lightweight-only staged migration, fails for this store)",
                    at: location, versions: [names[version], names[target]]))
            } else if !lost.isEmpty {
                let shown = lost.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (lost.count > 5 ? " and \(lost.count - 5) more" : "")
                diagnostics.append(Diagnostic(.cp207,
                    "the direct jump from '\(names[version])' to '\(names[target])' infers but drops \(shown), which the chain keeps "
                        + "(Core Data without the chain, or lightweight-only staged migration, loses this data)",
                    at: location, versions: [names[version], names[target]]))
            }
        }
    }
}

extension DirectJump {
    init(_ classification: StepClassification, lost: [String], blocking: [String]) {
        self.init(migration: classification.migration, inferable: classification.inferable, losesData: classification.losesData,
                  lostComparedToChain: lost, blockingChanges: blocking)
    }
}
