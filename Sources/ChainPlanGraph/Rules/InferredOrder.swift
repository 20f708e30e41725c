import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP110 InferredOrder: no spec was given, so the chain was guessed (git history or names).
    package static let inferredOrder = DiagnosticCode(
        "CP110", name: "InferredOrder", severity: .warning,
        summary: "No spec was given: the chain order was guessed from git history or version names",
        help: "No spec was given, so chainplan guessed the chain: in a git work tree with its history, the versions in the order of the commits that first added each one (following renames of the bundle's folder and of the versions); otherwise, or when history cannot tell them apart, by a natural version sort of their names (`Model 2` before `Model 10`). The chain ends at the bundle's current version (`.xccurrentversion`); versions ordered after it are left out. The message says which evidence decided. Review the order and commit a spec (`chainplan init` writes the same guess).",
        examples: [
            .chain("a written spec", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B", expected: []),
            .project("the bundle given instead of a spec", files: Array(RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]).dropFirst()), input: "Model.xcdatamodeld", expected: 1),
            .project("a spec gives the order", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

/// CP110: no spec was given, so the chain is guessed: the bundle's versions in the order git
/// history added them (or by a natural version sort), ending at the current version. The
/// message says which evidence decided, where names would have ordered otherwise, and which
/// versions after the current one were left out.
package struct InferredOrderCheck: ChainCheck {
    package static let code = DiagnosticCode.inferredOrder
    /// Inference happens only when a bundle is given instead of a spec; spec examples never trigger it.

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard context.isInferred else { return [] }
        let order = context.spec.inferredOrder?.versions ?? context.graph.versions
        let shown = Self.shown(order)
        var message: String
        switch context.spec.inferredOrder?.evidence {
        case .history:
            message = "no spec given: the chain \(shown) follows the commits that first added each version"
            if VersionOrder.sorted(order) != order { message += " (their names alone would order them otherwise)" }
        case .names(let why?):
            message = "no spec given: the chain \(shown) was inferred from version names (\(why))"
        case .versionIdentifiers:
            message = "no spec and no SchemaMigrationPlan given: the chain \(shown) follows the schemas' versionIdentifier"
        case .names(nil), nil:
            message = "no spec given: the chain \(shown) was inferred from version names"
        }
        if let inferred = context.spec.inferredOrder, !inferred.leftOut.isEmpty, let current = order.last {
            message += "; it ends at the current version '\(current)', so \(Self.shown(inferred.leftOut, separator: ", ")) "
                + (inferred.leftOut.count == 1 ? "comes" : "come") + " after it and " + (inferred.leftOut.count == 1 ? "is" : "are") + " left out"
        }
        message += context.spec.inferredOrder?.evidence == .versionIdentifiers
            ? "; review it, and declare the SchemaMigrationPlan the app passes"
            : "; review it and commit a spec with 'chainplan init'"
        return [Diagnostic(Self.code, message, at: SourceLocation(file: context.spec.file), versions: order.count <= 6 ? order : [])]
    }

    /// Up to six names quoted and joined, else the first three and the last two.
    static func shown(_ names: [String], separator: String = " → ") -> String {
        names.map { "'\($0)'" }.abbreviated.joined(separator: separator)
    }
}
