import ChainPlanCore
import ChainPlanPlanning
/// The decomposition suggestions of a stage plan (expand → copy → contract) as text and Markdown
/// sections; empty when the plan has none. Pure functions of the plan.
enum DecompositionRendering {
    static func edit(_ edit: ModelEdit) -> String {
        switch edit.kind {
        case .restoreAttribute:
            return "keeps '\(edit.entity).\(edit.attribute)' (from '\(edit.sourceVersion ?? "")')"
        case .makeOptional:
            return "makes '\(edit.entity).\(edit.attribute)' optional"
        }
    }

    static func text(_ plan: StagePlan) -> String {
        guard let decompositions = plan.decompositions, !decompositions.isEmpty else { return "" }
        var out = "\nDecompositions (expand → copy → contract; every step classified by chainplan's classifier):\n"
        for decomposition in decompositions {
            out += "  '\(decomposition.from)' → '\(decomposition.to)' (\(decomposition.pattern.rawValue)): \(decomposition.summary)\n"
            for version in decomposition.intermediates {
                out += "     new version '\(version.name)': '\(version.base)' that \(version.edits.map(edit).joined(separator: ", "))\n"
            }
            out += "     chain: \(decomposition.chain.map { "'\($0)'" }.joined(separator: " → "))\n"
            for (index, step) in decomposition.steps.enumerated() {
                out += "     \(index + 1). \(step.stage.rawValue) '\(step.from)' → '\(step.to)' (\(step.migration.rawValue)): \(step.does)\n"
            }
        }
        if decompositions.contains(where: { !$0.intermediates.isEmpty }) {
            out += "  Write the new versions into the bundle with --write-models.\n"
        }
        return out
    }

    static func markdown(_ plan: StagePlan) -> String {
        guard let decompositions = plan.decompositions, !decompositions.isEmpty else { return "" }
        func code(_ text: String) -> String { MarkupText.markdownCode(text, inTable: false) }
        var out = "\n### Decompositions (expand → copy → contract)\n\n"
        for decomposition in decompositions {
            out += "- \(code(decomposition.from)) → \(code(decomposition.to)) (\(decomposition.pattern.rawValue)): \(MarkupText.markdown(decomposition.summary))\n"
            for version in decomposition.intermediates {
                out += "  - new version \(code(version.name)): \(MarkupText.markdown("'\(version.base)' that " + version.edits.map(edit).joined(separator: ", ")))\n"
            }
            for (index, step) in decomposition.steps.enumerated() {
                out += "  \(index + 1). \(step.stage.rawValue) \(code(step.from)) → \(code(step.to)) (\(step.migration.rawValue)): \(MarkupText.markdown(step.does))\n"
            }
        }
        return out
    }
}
