import ChainPlanCore

extension DiagnosticCode {
    /// CP110 InferredOrder: the chain order was inferred from version names.
    package static let inferredOrder = DiagnosticCode(
        "CP110", name: "InferredOrder", severity: .warning,
        summary: "The chain order was inferred from version names",
        help: "No spec was given, so chainplan ordered the bundle's versions by a natural version sort. Review the order and commit a spec (`chainplan init`).",
        examples: [
            .chain("a written spec", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B", expected: []),
            .project("the bundle given instead of a spec", files: Array(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]).dropFirst()), input: "Model.xcdatamodeld", expected: 1),
            .project("a spec gives the order", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

/// CP110: no spec was given, so the chain is the bundle's versions ordered by a natural
/// version sort. The order is a guess: review it and commit a spec (`chainplan init`).
package struct InferredOrderCheck: ChainCheck {
    package static let code = DiagnosticCode.inferredOrder
    /// Inference happens only when a bundle is given instead of a spec; spec examples never trigger it.

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard context.isInferred else { return [] }
        let order = context.graph.versions
        let shown = order.count <= 6 ? order.map { "'\($0)'" }.joined(separator: " → ")
            : (order.prefix(3).map { "'\($0)'" } + ["…"] + order.suffix(2).map { "'\($0)'" }).joined(separator: " → ")
        return [Diagnostic(Self.code, "no spec given: the chain \(shown) was inferred from version names; review it and "
                           + "commit a spec with 'chainplan init'", at: SourceLocation(file: context.spec.file),
                           versions: order.count <= 6 ? order : [])]
    }
}
