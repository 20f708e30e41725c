import ChainPlanCore

extension DiagnosticCode {
    /// CP106 NoSingleTarget: the chain has no single target version.
    package static let noSingleTarget = DiagnosticCode(
        "CP106", name: "NoSingleTarget", severity: .error,
        summary: "The chain has no single target version",
        help: "A non-empty chain must end in exactly one leaf (the version every store migrates to), or name it with `target`. Several leaves, or none (everything in cycles), leave the target ambiguous.",
        examples: [
            .chain("two leaves", spec: "{\"A\": \"B\",\n \"C\": \"D\"}", expected: [(1, 1)]),
            .chain("only a cycle", spec: #"{"A": "B", "B": "A"}"#, expected: [(1, 1)]),
            .chain("a target outside the chain", spec: "{\"chain\": [\"A\", \"B\"],\n \"target\": \"C\"}",
                         expected: [(2, 12)]),
            .chain("two leaves, one named as target", spec: "{\"chain\": {\"A\": \"B\", \"C\": \"D\"}, \"target\": \"B\"}",
                         expected: []),
            .chain("a converging tree", spec: #"{"A": "C", "B": "C"}"#, expected: []),
            .chain("an empty chain (nothing to migrate)", spec: "[]", expected: []),
        ])
}

/// CP106: a non-empty chain has no single target: several leaves (or none, when every
/// version is in a cycle) and no `target` given, or a `target` that is not in the chain.
package struct TargetCheck: ChainCheck {
    package static let code = DiagnosticCode.noSingleTarget

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard let problem = context.target.problem else { return [] }
        let names = context.graph.versions
        switch problem {
        case .severalLeaves(let leaves):
            let list = leaves.map { "'\(names[$0])'" }.joined(separator: ", ")
            return [Diagnostic(Self.code, "the chain has \(leaves.count) leaves (\(list)) and no target; "
                               + "keep one leaf or name it with \"target\"",
                               at: context.spec.chainLocation, versions: leaves.map { names[$0] })]
        case .noLeaf:
            return [Diagnostic(Self.code, "every version has a next version, so the chain has no target",
                               at: context.spec.chainLocation)]
        case .explicitTargetNotInChain(let target):
            return [Diagnostic(Self.code, "the target '\(target.value)' is not a version of the chain",
                               at: target.location, versions: [target.value])]
        case .noCurrentVersion:
            return [Diagnostic(Self.code, "the chain is empty and the bundle has no current version to migrate to",
                               at: context.spec.chainLocation)]
        }
    }
}
