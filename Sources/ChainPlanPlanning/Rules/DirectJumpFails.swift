import ChainPlanCore

extension DiagnosticCode {
    /// CP207 DirectJumpFails: the direct jump from a start to the target is not inferable or loses data.
    ///
    /// Raised in `ChainClassification.swift`, `DryRun.swift`, `JUnitReporter.swift`.
    public static let directJumpFails = DiagnosticCode(
        "CP207", name: "DirectJumpFails", severity: .warning,
        summary: "The direct jump from a start to the target is not inferable or loses data",
        help: "Every chained step works, but Core Data without a chain (or lightweight-only staged migration) infers one mapping from the store's version straight to the target, and that mapping fails or drops data.",
        examples: [
            .versions("dropped, then added again with another type", versions: [
                RuleExampleFixtures.note, #"<entity name="Note"/>"#,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#,
            ], expected: 1),
            .versions("each step and the direct jump infer", versions: [RuleExampleFixtures.note, RuleExampleFixtures.pinnedWithDefault, RuleExampleFixtures.pinnedWithDefault.replacingOccurrences(of: "</entity>", with: #"<attribute name="body" optional="YES" attributeType="String"/></entity>"#)],
                                  expected: 0),
        ])
}
