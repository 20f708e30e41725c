import ChainPlanCore

extension DiagnosticCode {
    /// CP108 UnreachableTarget: a start version has no path to the target.
    package static let unreachableTarget = DiagnosticCode(
        "CP108", name: "UnreachableTarget", severity: .error,
        summary: "A start version has no path to the target",
        help: "Following the chain from this version ends somewhere other than the target (a dead end) or loops. A store at this version cannot be migrated.",
        examples: [
            .chain("a branch that ends elsewhere", spec: "{\"chain\": {\"A\": \"B\",\n \"C\": \"D\"}, \"target\": \"B\"}",
                         expected: [(2, 2), (2, 7)]),
            .chain("a start leading into a cycle",
                         spec: "{\"chain\": {\"T0\": \"T\",\n \"S\": \"A\", \"A\": \"B\", \"B\": \"A\"}, \"target\": \"T\"}",
                         expected: [(2, 2)]),
            .chain("a target in the middle of an array", spec: "{\"chain\": [\"A\", \"B\", \"C\"], \"target\": \"B\"}",
                         expected: [(1, 22)]),
            .chain("every start reaches the leaf", spec: #"{"A": "C", "B": "C"}"#, expected: []),
        ])
}

/// CP108: following the chain from a start version does not reach the target: it stops at
/// a dead end (a version with no next version that is not the target) or enters a cycle.
/// Members of a cycle are covered by CP104 and versions outside the chain by CP107.
package struct UnreachableTargetCheck: ChainCheck {
    package static let code = DiagnosticCode.unreachableTarget

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard let target = context.target.version else { return [] }
        let names = context.graph.versions
        // A version whose only successor is itself is reported by CP103.
        let selfLooping = Set(context.spec.treeEntries.filter { $0.source.value == $0.destination.value }.map(\.source.value))
        let onCycles = Set(context.cycles.joined())
        var findings = FindingList(Self.code)
        for version in 0..<context.graph.count {
            guard let location = context.graph.firstLocation[version] else { continue }
            switch context.reachability.fates[version] {
            case .reaches, .noTarget:
                continue
            case .deadEnd(let end):
                if end == version, selfLooping.contains(names[version]) { continue }
                let message = end == version
                    ? "version '\(names[version])' has no next version and is not the target '\(names[target])'"
                    : "no path from '\(names[version])' to the target '\(names[target])': the chain stops at '\(names[end])'"
                findings.add(Diagnostic(Self.code, message, at: location, versions: end == version ? [names[version]] : [names[version], names[end]]))
            case .cycle(let member):
                if onCycles.contains(version) { continue }
                findings.add(Diagnostic(
                    Self.code, "no path from '\(names[version])' to the target '\(names[target])': it leads into the cycle through '\(names[member])'",
                    at: location, versions: [names[version], names[member]]))
            }
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}
