import ChainPlanCore

extension DiagnosticCode {
    /// CP303 HeavyweightMemory: a heavyweight step would load more than the memory threshold.
    ///
    /// Raised by `chainplan passes` for a pass over its budget, and by a dry run for a heavyweight step over its limit (below).
    package static let heavyweightMemory = DiagnosticCode(
        "CP303", name: "HeavyweightMemory", severity: .warning,
        summary: "A heavyweight step would load more than the memory threshold",
        help: "A heavyweight migration loads every instance of the mapped entities. Split the mapping model into several passes by entity to bound memory.",
        examples: [
            .project("a heavyweight step over 80,000 rows (about 1.1 MB) with a 1 MB limit", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.numericTitleWithBody]),
                         store: .fixture("V1", rows: 80_000, memoryLimitMB: 1, simulate: false), expected: 1),
            .project("the same step with the default 100 MB limit", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.numericTitleWithBody]),
                         store: .fixture("V1", rows: 80_000, simulate: false), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for pass `number` (1-based) of a multi-pass plan, over `budget` bytes.
    static func heavyweightMemory(pass number: Int, _ pass: PassPlan.Pass, bytes: Int, budget: Int, at location: SourceLocation,
                                  versions: [String]) -> Diagnostic {
        Diagnostic(.heavyweightMemory,
            "pass \(number) (\(pass.entities.joined(separator: ", "))) would hold about \(ByteSize.describe(bytes)) of objects, over the \(ByteSize.describe(budget)) limit; its entities cannot be split further (they depend on each other, or have no unique key to fetch by)",
            at: location, versions: versions)
    }

    /// The finding for a heavyweight step `from` → `to` of a dry run on `store` that would hold
    /// `bytes`, over `limit`.
    package static func heavyweightMemory(from: String, to: String, bytes: Int, limit: Int, store: String) -> Diagnostic {
        Diagnostic(.heavyweightMemory,
            "'\(from)' → '\(to)' is heavyweight and would hold about \(ByteSize.describe(bytes)) of objects from '\(store)' at once, over the "
                + "\(ByteSize.describe(limit)) limit; split the mapping model into passes by entity",
            at: SourceLocation(file: store), versions: [from, to])
    }
}

/// The memory a heavyweight migration holds: every instance of the mapped entities exists twice,
/// in the source and the destination context, and each object costs its row's payload plus a
/// fixed overhead (Docs/dry-run.md, "Memory estimate": an assumption, not a measurement).
package enum HeavyweightMemory {
    /// Bytes per managed object beyond its row payload: the `NSManagedObject` and its object ID,
    /// its snapshot in the coordinator's row cache, boxed attribute values, and the migration
    /// manager's source ↔ destination association entry.
    package static let perObjectOverheadBytes = 512

    /// `rows × 2 × (averageRowBytes + perObjectOverheadBytes)`.
    package static func estimate(rows: Int, averageRowBytes: Int) -> Int {
        rows * 2 * (max(averageRowBytes, 1) + perObjectOverheadBytes)
    }
}
