import ChainPlanCore
import ChainPlanInference
/// The step classifier a chain's plan used and every pair (step or direct jump) it classified,
/// with the pair's lineage: kept only when asked (stage planning judges the same pairs; holding
/// every direct jump's result is otherwise wasted memory on a long history).
struct ClassifiedPairs: Sendable {
    struct Result: Sendable {
        var classification: StepClassification
        /// The inferred mapping's lineage; nil when nothing was inferred.
        var lineage: Lineage?
    }

    let classifier: StepClassifier
    let results: [StepKey: Result]

    init<Pairs: Sequence>(classifier: StepClassifier, pairs: Pairs) where Pairs.Element == (StepKey, (StepClassification, Lineage?)) {
        self.classifier = classifier
        var results: [StepKey: Result] = [:]
        for (key, result) in pairs where results[key] == nil { results[key] = Result(classification: result.0, lineage: result.1) }
        self.results = results
    }
}
