/// The order every report lists findings in: the history's order, then severity.
///
/// A finding about versions sorts by the earliest of them in `versions` (the chain's order of
/// first appearance), so a step's findings follow the step's source version and a long
/// history reads from its first model to its last. Findings about no version (the spec, the
/// configuration, the bundle as a whole) come first. Within one place in the history, errors
/// come before warnings before notes; ties keep the file/line/column order (`Diagnostic.<`).
///
///     versions ["A", "B", "C"]; findings: note (B→C), error (A→B), warning (A→B), error (spec)
///     → error (spec), error (A→B), warning (A→B), note (B→C)
package enum HistoryOrder {
    package static func sorted(_ diagnostics: [Diagnostic], versions: [String]) -> [Diagnostic] {
        var position: [String: Int] = [:]
        position.reserveCapacity(versions.count)
        for (index, name) in versions.enumerated() where position[name] == nil { position[name] = index }
        // A version not in the list (a typo in the spec) sorts after every known one.
        let unknown = versions.count
        let keyed = diagnostics.map { diagnostic -> (Int, Diagnostic) in
            let place = diagnostic.versions.isEmpty ? -1 : diagnostic.versions.map { position[$0] ?? unknown }.min() ?? unknown
            return (place, diagnostic)
        }
        return keyed.sorted { lhs, rhs in
            if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
            if lhs.1.severity != rhs.1.severity { return lhs.1.severity > rhs.1.severity }
            return lhs.1 < rhs.1
        }.map(\.1)
    }
}
