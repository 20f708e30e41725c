import ChainPlanCore
import ChainPlanKit
import ChainPlanPlanning
import Foundation

/// `chainplan stage --write-models`: writes the decompositions' intermediate versions
/// (`StageModelWriter`; an existing version is CP514 and exit 2, before anything is written),
/// then prints what it wrote and the exact edit that plans the decomposed chain: the spec's new
/// `chain` value (in the spec's own form) and its whole `stages` value (the spec's hints that
/// still name steps, then the new custom steps), or, for a bundle given as input, the `stages`
/// value for `.chainplan.yml` (the bundle's version order lists the new versions by itself).
enum StageModelWriting {
    static func write(_ plan: StagePlan, outcome: StagePlanOutcome, configured: [StepKey]) throws -> String {
        let decompositions = (plan.decompositions ?? []).filter { !$0.intermediates.isEmpty }
        guard !decompositions.isEmpty else { return "No decomposition needs new model versions: nothing written.\n" }
        guard let bundle = outcome.bundleURL else { throw UsageError("--write-models needs the model bundle's path (a spec with \"model\", or the bundle itself)") }
        let versions: [(name: String, text: String)]
        switch StageModelWriter.prepare(decompositions, bundle: bundle) {
        case .failure(let refusal): throw UsageError(findings: refusal.findings)
        case .success(let prepared): versions = prepared
        }
        var out = try StageModelWriter.write(versions, bundle: bundle).map { "wrote \($0)\n" }.joined()
        out += nextStep(decompositions, outcome: outcome, configured: configured)
        return out
    }

    /// The edit that plans the decomposed chain.
    static func nextStep(_ decompositions: [Decomposition], outcome: StagePlanOutcome, configured: [StepKey]) -> String {
        let replaced = Set(decompositions.map { StepKey(from: $0.from, to: $0.to) })
        let added = decompositions.flatMap { $0.steps.filter { $0.stage == .custom }.map { StepKey(from: $0.from, to: $0.to) } }
        func stages(keeping existing: [StepKey]) -> [String] {
            var seen: Set<StepKey> = []
            return (existing.filter { !replaced.contains($0) } + added).filter { seen.insert($0).inserted }.map { "\($0.from) -> \($0.to)" }
        }
        var out = ""
        let stale = configured.filter(replaced.contains)
        guard let spec = outcome.spec else {
            let order = StageDecomposer.expandedOrder(outcome.order, with: decompositions)
            out += "next: the bundle's version order now reads \(order.map { "'\($0)'" }.joined(separator: " → ")); in .chainplan.yml beside it, set:\n"
            out += "  stages: \(list(stages(keeping: configured)))\n"
            return out
        }
        let json = spec.syntax == .json
        let key = { (name: String) in json ? "\"\(name)\"" : name }
        let chain: String
        if spec.form == .tree {
            var entries: [(String, String)] = []
            for entry in spec.treeEntries {
                let step = StepKey(from: entry.source.value, to: entry.destination.value)
                if let decomposition = decompositions.first(where: { StepKey(from: $0.from, to: $0.to) == step }) {
                    let path = decomposition.chain
                    entries += zip(path, path.dropFirst()).map { ($0, $1) }
                } else {
                    entries.append((step.from, step.to))
                }
            }
            chain = "{" + entries.map { "\(quoted($0)): \(quoted($1))" }.joined(separator: ", ") + "}"
        } else if spec.form == .array {
            chain = list(StageDecomposer.expandedOrder(spec.arrayEntries.map(\.value), with: decompositions))
        } else {
            chain = list(StageDecomposer.expandedOrder(outcome.order, with: decompositions))
        }
        out += "next: in \(outcome.report.spec), set:\n"
        out += "  \(key("chain")): \(chain)\(json ? "," : "")\n"
        out += "  \(key("stages")): \(list(stages(keeping: spec.customStages.map(\.value))))\n"
        if !stale.isEmpty {
            out += "and remove \(stale.map { quoted("\($0.from) -> \($0.to)") }.joined(separator: ", ")) from .chainplan.yml's stages (the step is decomposed)\n"
        }
        return out
    }

    /// A JSON string (also a YAML double-quoted scalar).
    static func quoted(_ item: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(item)).flatMap { String(data: $0, encoding: .utf8) } ?? "\"\""
    }

    static func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ", ") + "]" }
}
