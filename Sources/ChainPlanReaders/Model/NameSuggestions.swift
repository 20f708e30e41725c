/// Nearest names by edit distance, for "did you mean" hints.
package enum NameSuggestions {
    /// Every candidate tied at the smallest edit distance (within a third of the longer name,
    /// at least 2), at most `limit`, in version order: "Model 5" suggests 'Model 2', 'Model 3'
    /// and 'Model 4' alike rather than an arbitrary two of them.
    package static func nearest(to name: String, among candidates: [String], limit: Int = 3) -> [String] {
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
    package static func phrase(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last else { return "" }
        return quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Levenshtein distance (inputs are capped by the caller).
    package static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
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
