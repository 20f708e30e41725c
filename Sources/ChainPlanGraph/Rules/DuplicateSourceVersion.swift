import ChainPlanCore

extension DiagnosticCode {
    /// CP102 DuplicateSourceVersion: a source version appears twice as a key of a version tree.
    package static let duplicateSourceVersion = DiagnosticCode(
        "CP102", name: "DuplicateSourceVersion", severity: .error,
        summary: "A source version appears twice as a key of a version tree",
        help: "Each source version migrates to exactly one destination. A second key for the same version is ambiguous; JSON and YAML parsers silently keep one of them.",
        examples: [
            .chain("JSON object with a repeated key", spec: "{\"A\": \"B\",\n \"A\": \"C\"}", expected: [(2, 2)]),
            .chain("YAML mapping with a repeated key", spec: "A: B\nB: C\nA: C\n", syntax: .yaml, expected: [(3, 1)]),
            .chain("full form", spec: "{\"chain\": {\"A\": \"C\", \"B\": \"C\", \"B\": \"D\"}}", expected: [(1, 32)]),
            .chain("converging tree", spec: #"{"A": "C", "B": "C"}"#, expected: []),
        ])
}

/// CP102: a source version appears twice as a key of a version tree.
///
/// JSON and YAML parsers usually keep one of the two silently; CoreStore asserts in debug
/// builds ("ambiguous version paths"). Reported at the second occurrence.
package struct DuplicateKeyCheck: ChainCheck {
    package static let code = DiagnosticCode.duplicateSourceVersion

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard context.spec.form == .tree else { return [] }
        let entries = context.spec.treeEntries
        var first: [String: Int] = [:] // source version → index of its first entry
        first.reserveCapacity(entries.count)
        var findings = FindingList(Self.code)
        for (index, entry) in entries.enumerated() {
            let source = entry.source.value
            if let earlierIndex = first[source] {
                let earlier = entries[earlierIndex]
                findings.add(Diagnostic(
                    Self.code,
                    "source version '\(source)' appears twice (first at \(earlier.source.location.lineColumn), "
                        + "migrating to '\(earlier.destination.value)'; here to '\(entry.destination.value)')",
                    at: entry.source.location, versions: [source]))
            } else {
                first[source] = index
            }
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}
