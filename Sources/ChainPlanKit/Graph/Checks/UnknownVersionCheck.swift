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
                let suffix = hint.isEmpty ? "" : "; did you mean \(hint.map { "'\($0)'" }.joined(separator: " or "))?"
                return Diagnostic(Self.code, "version '\(name)' is not in the model bundle '\(bundle.name)'\(suffix)",
                                  at: location, versions: [name])
            }())
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}

/// Nearest names by edit distance, for "did you mean" hints.
enum NameSuggestions {
    static func nearest(to name: String, among candidates: [String], limit: Int = 2) -> [String] {
        let target = Array(name.lowercased().unicodeScalars.prefix(256))
        let scored = candidates.compactMap { candidate -> (Int, String)? in
            let other = Array(candidate.lowercased().unicodeScalars.prefix(256))
            let distance = editDistance(target, other)
            let allowed = max(2, max(target.count, other.count) / 3)
            return distance <= allowed ? (distance, candidate) : nil
        }
        return scored.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(limit).map(\.1)
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
