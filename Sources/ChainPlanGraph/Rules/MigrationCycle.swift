import ChainPlanCore

extension DiagnosticCode {
    /// CP104 MigrationCycle: the chain contains a cycle.
    package static let migrationCycle = DiagnosticCode(
        "CP104", name: "MigrationCycle", severity: .error,
        summary: "The chain contains a cycle",
        help: "Versions in a cycle never reach the target: a store at any of them migrates forever or fails. Each strongly connected component is reported once with its members in order.",
        examples: [
            .chain("two versions pointing at each other", spec: "{\"A\": \"B\",\n \"B\": \"A\"}", expected: [(2, 7)]),
            .chain("a self-loop is CP103's finding, not a cycle", spec: #"{"A": "A", "B": "A"}"#, expected: []),
            .chain("an array that comes back", spec: #"["A", "B", "C", "A"]"#, expected: [(1, 17)]),
            .chain("two separate cycles", spec: "{\"A\": \"B\", \"B\": \"A\",\n \"C\": \"D\", \"D\": \"C\"}",
                         expected: [(1, 17), (2, 17)]),
            .chain("YAML", spec: "A: B\nB: C\nC: A\n", syntax: .yaml, expected: [(3, 4)]),
            .chain("a tree without cycles", spec: #"{"A": "C", "B": "C"}"#, expected: []),
        ])
}

/// CP104: the chain contains a cycle. Each cycle (a strongly connected component of the
/// version graph) is reported once, its members in migration order starting from the one
/// written first, at the step that closes it.
package struct CycleCheck: ChainCheck {
    package static let code = DiagnosticCode.migrationCycle

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        let graph = context.graph
        // Where each step is written, for the step that closes each cycle (one pass, not one per cycle).
        var stepLocations: [Int: [(to: Int, location: SourceLocation?)]] = [:]
        for edge in graph.edges { stepLocations[edge.from, default: []].append((edge.to, edge.location)) }
        var findings = FindingList(Self.code)
        for members in context.cycles {
            findings.add({
                let names = members.map { graph.versions[$0] }
                // The step that closes the cycle: from the last member back to the first.
                let closing = stepLocations[members[members.count - 1]]?.first { $0.to == members[0] }
                let text = (names + [names[0]]).map { "'\($0)'" }.joined(separator: " → ")
                return Diagnostic(Self.code, "cycle: \(text)", at: closing?.location ?? context.location(of: members[0]),
                                  versions: names)
            }())
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}
