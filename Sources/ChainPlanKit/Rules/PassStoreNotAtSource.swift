import ChainPlanCore
import ChainPlanStore

extension DiagnosticCode {
    /// CP708 PassStoreNotAtSource: the store that sizes the passes is not at the step's source version.
    ///
    /// Raised by `chainplan passes --store` (`passStoreNotAtSource`, below).
    public static let passStoreNotAtSource = DiagnosticCode(
        "CP708", name: "PassStoreNotAtSource", severity: .warning,
        summary: "The store that sizes the passes is not at the step's source version",
        help: "`passes --store` sizes each pass by the store's rows per entity, which only describe the step when the store is at its source version. The store is identified by its version hashes (as `dry-run` does); at another version, or at none, its row counts are at best an estimate. Give a store of the source version (`chainplan dry-run` says where a store is).",
        examples: [
            .project("passes for V1 → V2 sized by a store written for V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithNumericTitle]),
                         store: .fixture("V2", rows: 3), passes: StepKey(from: "V1", to: "V2"), expected: 1),
            .project("the store is at V1, the step's source", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithNumericTitle]),
                         store: .fixture("V1", rows: 3), passes: StepKey(from: "V1", to: "V2"), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for `store`, detected at `detected`, given to size the passes of `from` → `to`.
    static func passStoreNotAtSource(_ store: String, detected: String, from: String, to: String) -> Diagnostic {
        Diagnostic(.passStoreNotAtSource,
            "store '\(store)' is at version '\(detected)' (by its version hashes), not at '\(from)', the source of '\(from)' → '\(to)': "
                + "its row counts size the passes of a step it does not take; give a store of '\(from)'",
            at: SourceLocation(file: store), versions: [from, to])
    }
}

extension StoreIdentification {
    /// Whether the store that sizes the passes is at the step's source version: nothing when it is,
    /// CP708 when its hashes name another version, the identification's own CP301/CP302 when they
    /// name none or several.
    func passStoreFindings(from: String, to: String, store: String) -> [Diagnostic] {
        guard let detectedVersion else { return diagnostics }
        guard detectedVersion != from else { return [] }
        return [.passStoreNotAtSource(store, detected: detectedVersion, from: from, to: to)]
    }
}
