/// CP102: a source version appears twice as a key of a version tree.
///
/// JSON and YAML parsers usually keep one of the two silently; CoreStore asserts in debug
/// builds ("ambiguous version paths"). Reported at the second occurrence.
public struct DuplicateKeyCheck: ChainCheck {
    public static let code = DiagnosticCode.cp102
    public static let examples = [
        CheckExample("JSON object with a repeated key", spec: "{\"A\": \"B\",\n \"A\": \"C\"}", expected: [(2, 2)]),
        CheckExample("YAML mapping with a repeated key", spec: "A: B\nB: C\nA: C\n", syntax: .yaml, expected: [(3, 1)]),
        CheckExample("full form", spec: "{\"chain\": {\"A\": \"C\", \"B\": \"C\", \"B\": \"D\"}}", expected: [(1, 32)]),
        CheckExample("converging tree", spec: #"{"A": "C", "B": "C"}"#, expected: []),
    ]

    public init() {}

    public func check(_ context: ChainContext) -> [Diagnostic] {
        guard context.spec.form == .tree else { return [] }
        var first: [String: ChainSpec.TreeEntry] = [:]
        var findings: [Diagnostic] = []
        for entry in context.spec.treeEntries {
            let source = entry.source.value
            if let earlier = first[source] {
                findings.append(Diagnostic(
                    Self.code,
                    "source version '\(source)' appears twice (first at \(earlier.source.location.lineColumn), "
                        + "migrating to '\(earlier.destination.value)'; here to '\(entry.destination.value)')",
                    at: entry.source.location, versions: [source]))
            } else {
                first[source] = entry
            }
        }
        return findings
    }
}
