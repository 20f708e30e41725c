import ChainPlanCore
import ChainPlanInference
/// Classifies the jumps a staged migration executes with the chain's classifier (reference §6.2.3):
/// whether Core Data can migrate the store's actual model straight to the target, and what the
/// jump drops that stepping through the versions in between keeps (per destination entity and
/// property, by the inferred mappings' lineage, §4.1 keys). Memoised per pair.
final class JumpJudge {
    let classifier: StepClassifier
    /// The versions in migration order (representatives of merged versions).
    let order: [String]
    private let position: [String: Int]
    private var jumps: [StepKey: JumpJudgement] = [:]
    private var lineages: [StepKey: Lineage?] = [:]
    /// Composed step lineages by (start position, end position).
    private var stepped: [StepKey: Lineage?] = [:]

    /// Pairs classified already (by the chain's plan, or by the caller), judged from these.
    private var classified: [StepKey: ClassifiedPairs.Result]

    init(classifier: StepClassifier, order: [String], classified: [StepKey: ClassifiedPairs.Result] = [:]) {
        self.classifier = classifier
        self.order = order
        self.classified = classified
        var position: [String: Int] = [:]
        for (index, version) in order.enumerated() where position[version] == nil { position[version] = index }
        self.position = position
    }

    /// The step (or jump) classification and its lineage.
    private func lineage(_ from: String, _ to: String) -> Lineage? {
        let key = StepKey(from: from, to: to)
        if let known = lineages[key] { return known }
        let mapping = classifier.infer(from: from, to: to)
        let lineage = mapping.map(Lineage.init)
        lineages[key] = lineage
        return lineage
    }

    func judge(_ from: String, _ to: String) -> JumpJudgement {
        let key = StepKey(from: from, to: to)
        if let known = jumps[key] { return known }
        let classification: StepClassification
        if let seen = classified.removeValue(forKey: key) {
            classification = seen.classification
            if let lineage = seen.lineage { lineages[key] = lineage }
        } else {
            let (classified, mapping) = classifier.classify(from: from, to: to)
            classification = classified
            if let mapping { lineages[key] = Lineage(mapping) }
        }
        var lost: [String] = []
        if classification.mappingModel == nil, classification.migration == .lightweight || classification.migration == .none,
           let start = position[from], let end = position[to], end > start + 1, let direct = lineages[key] ?? nil,
           let stepped = steppedLineage(from: start, to: end) {
            lost = stepped.lost(in: direct)
        }
        var judgement = JumpJudgement(migration: classification.migration, inferable: classification.inferable,
                                      mappingModel: classification.mappingModel?.path, lostComparedToSteps: lost,
                                      blocking: classification.changes.filter { $0.verdict == .blocksInference }.map(\.detail))
        judgement.validation = classification.validation
        jumps[key] = judgement
        return judgement
    }

    /// A pair the caller classified with the same classifier: judged from it when asked.
    func record(_ from: String, _ to: String, _ classification: StepClassification, mapping: InferredMapping?) {
        let key = StepKey(from: from, to: to)
        guard jumps[key] == nil else { return }
        classified[key] = ClassifiedPairs.Result(classification: classification,
                                                 lineage: mapping.map(Lineage.init))
    }

    /// Whether every step from `from` to `to` (positions in `order`) migrates on its own.
    func steppingWorks(from start: Int, to end: Int) -> Bool {
        guard start < end else { return false }
        return (start..<end).allSatisfy { !judge(order[$0], order[$0 + 1]).fails }
    }

    /// The composed lineage of the steps from `start` to `end`; nil when a step uses a mapping
    /// model (its lineage is the mapping model's, not known here) or cannot be read.
    private func steppedLineage(from start: Int, to end: Int) -> Lineage? {
        func key(_ position: Int) -> StepKey { StepKey(from: String(position), to: String(end)) }
        if let known = stepped[key(start)] { return known }
        // The nearest memoised tail (position … end), then compose backwards down to `start`:
        // every start of a run shares the tail, so a run of n versions costs n compositions.
        var position = start + 1
        var composed: Lineage?
        var found = false
        while position < end {
            if let tail = stepped[key(position)] {
                composed = tail
                found = true
                break
            }
            position += 1
        }
        if !found {
            // position == end: begin with the last step alone.
            position = end - 1
            let step = judge(order[position], order[end])
            composed = step.mappingModel == nil && !step.fails ? lineage(order[position], order[end]) : nil
            stepped[key(position)] = composed
        }
        while position > start {
            position -= 1
            let step = judge(order[position], order[position + 1])
            if let tail = composed, step.mappingModel == nil, !step.fails, let head = lineage(order[position], order[position + 1]) {
                composed = head.followed(by: tail)
            } else {
                composed = nil
            }
            stepped[key(position)] = composed
        }
        return composed
    }
}
