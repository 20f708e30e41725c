import ChainPlanCore

extension DiagnosticCode {
    /// CP303 HeavyweightMemory: a heavyweight step would load more than the memory threshold.
    ///
    /// Raised in `DryRun.swift`, `PassesPlanning.swift`.
    public static let heavyweightMemory = DiagnosticCode(
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
