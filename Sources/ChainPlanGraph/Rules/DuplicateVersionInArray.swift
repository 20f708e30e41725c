import ChainPlanCore

extension DiagnosticCode {
    /// CP101 DuplicateVersionInArray: a version appears more than once in an array chain.
    package static let duplicateVersionInArray = DiagnosticCode(
        "CP101", name: "DuplicateVersionInArray", severity: .error,
        summary: "A version appears more than once in an array chain",
        help: "An array chain lists each version once, oldest first. A repeated version makes the chain loop or gives a version two successors; CoreStore asserts in debug builds and silently misbehaves in release builds.",
        examples: [
            .chain("a version repeated at the end", spec: #"["A", "B", "A"]"#, expected: [(1, 12)]),
            .chain("a version repeated in the middle", spec: "[\"A\",\n \"B\",\n \"A\",\n \"C\"]", expected: [(3, 2)]),
            .chain("every repetition is reported", spec: #"["A", "A", "A"]"#, expected: [(1, 7), (1, 12)]),
            .chain("YAML", spec: "- A\n- B\n- B\n", syntax: .yaml, expected: [(3, 3)]),
            .chain("distinct versions", spec: #"["A", "B", "C"]"#, expected: []),
        ])
}

/// CP101: a version appears more than once in an array chain.
///
/// CoreStore asserts on this only in debug builds, and misses `["A","B","A"]` entirely
/// (no key is overwritten, so its `isValid` stays true although the chain loops).
package struct DuplicateVersionCheck: ChainCheck {
    package static let code = DiagnosticCode.duplicateVersionInArray

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard context.spec.form == .array else { return [] }
        var first: [String: SourceLocation] = [:]
        var findings = FindingList(Self.code)
        for entry in context.spec.arrayEntries {
            if let earlier = first[entry.value] {
                findings.add(Diagnostic(
                    Self.code,
                    "version '\(entry.value)' appears more than once in the chain (first at \(earlier.lineColumn))",
                    at: entry.location, versions: [entry.value]))
            } else {
                first[entry.value] = entry.location
            }
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}
