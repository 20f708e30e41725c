import ChainPlanCore

extension DiagnosticCode {
    /// CP207 DirectJumpFails: the direct jump from a start to the target is not inferable or loses data.
    ///
    /// Raised when a chain is classified, for a start whose steps all infer (`directJumpRefused`, `directJumpDropsData`, below).
    package static let directJumpFails = DiagnosticCode(
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

extension Diagnostic {
    /// The finding for the direct jump `from` → `to` of a start whose steps all infer, which the
    /// builder refuses (`blocking`: its reasons).
    static func directJumpRefused(from: String, to: String, blocking: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic(.directJumpFails,
                   "every step from '\(from)' to '\(to)' infers, but the direct jump does not: "
                       + blocking.prefix(3).joined(separator: "; ") + (blocking.count > 3 ? "; and \(blocking.count - 3) more" : "")
                       + " (Core Data without the chain, or lightweight-only staged migration, fails for this store)",
                   at: location, versions: [from, to])
    }

    /// The finding for the direct jump `from` → `to` of a start whose steps all infer, which
    /// infers but drops `lost`, which the chain keeps.
    static func directJumpDropsData(from: String, to: String, lost: [String], at location: SourceLocation) -> Diagnostic {
        let shown = lost.prefix(5).quotedList + (lost.count > 5 ? " and \(lost.count - 5) more" : "")
        return Diagnostic(.directJumpFails,
                          "the direct jump from '\(from)' to '\(to)' infers but drops \(shown), which the chain keeps "
                              + "(Core Data without the chain, or lightweight-only staged migration, loses this data)",
                          at: location, versions: [from, to])
    }
}
