/// CP105: a version the chain names is not in the model bundle. Core Data cannot load
/// it, so migration through it fails at runtime. The nearest bundle names are given as a hint.
public struct UnknownVersionCheck: ChainCheck {
    public static let code = DiagnosticCode.cp105
    public static let examples = [
        CheckExample("a typo", spec: #"["Model", "Model 2", "Modle 3"]"#,
                     bundleVersions: ["Model", "Model 2", "Model 3"], currentVersion: "Model 3", expected: [(1, 22)]),
        CheckExample("a target from another bundle", spec: "{\"chain\": [\"A\", \"B\"],\n \"target\": \"B\"}",
                     bundleVersions: ["A"], currentVersion: "A", expected: [(1, 17)]),
        CheckExample("every version exists", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B",
                     expected: []),
    ]

    public init() {}

    public func check(_ context: ChainContext) -> [Diagnostic] {
        guard let bundle = context.bundle, !context.isInferred else { return [] }
        let known = Set(bundle.versionNames)
        var findings = FindingList(Self.code)
        for (number, name) in context.graph.versions.enumerated() where !known.contains(name) {
            guard let location = context.graph.firstLocation[number] else { continue }
            findings.add({
                let hint = NameSuggestions.nearest(to: name, among: bundle.versionNames)
                let suffix = hint.isEmpty ? "" : "; did you mean \(NameSuggestions.phrase(hint))?"
                return Diagnostic(Self.code, "version '\(name)' is not in the model bundle '\(bundle.name)'\(suffix)",
                                  at: location, versions: [name])
            }())
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}

/// Nearest names by edit distance, for "did you mean" hints.
public enum NameSuggestions {
    /// Every candidate tied at the smallest edit distance (within a third of the longer name,
    /// at least 2), at most `limit`, in version order: "Model 5" suggests 'Model 2', 'Model 3'
    /// and 'Model 4' alike rather than an arbitrary two of them.
    public static func nearest(to name: String, among candidates: [String], limit: Int = 3) -> [String] {
        let target = Array(name.lowercased().unicodeScalars.prefix(256))
        let scored = candidates.compactMap { candidate -> (Int, String)? in
            let other = Array(candidate.lowercased().unicodeScalars.prefix(256))
            let distance = editDistance(target, other)
            let allowed = max(2, max(target.count, other.count) / 3)
            return distance <= allowed ? (distance, candidate) : nil
        }
        guard let best = scored.map(\.0).min() else { return [] }
        let tied = scored.filter { $0.0 == best }.map(\.1)
        return Array(tied.sorted(by: VersionOrder.areInIncreasingOrder).prefix(limit))
    }

    /// `'A'`, `'A' or 'B'`, `'A', 'B' or 'C'`.
    public static func phrase(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last else { return "" }
        return quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Levenshtein distance over Unicode scalars (inputs are capped by the caller).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
