import ChainPlanCore

extension DiagnosticCode {
    /// CP305 DeferredColumnsMismatch: the store's deferred columns do not match its model.
    ///
    /// Raised in `StoreDeferredWork.swift`.
    public static let deferredColumnsMismatch = DiagnosticCode(
        "CP305", name: "DeferredColumnsMismatch", severity: .error, unusableInput: true,
        summary: "The store's deferred columns do not match its model",
        help: "A deferred lightweight migration renames removed columns `_DEFERRED_<uuid>__<column>` until `finishDeferredLightweightMigration()` copies their tables (core-data-internals §7.3). Such a column in a table the store's model version does not have, with another name shape, or standing for a column the model still reads means the store is not at the version it claims or its schema was edited: neither finishing nor the next migration can be predicted.",
        examples: [
            .project("a column named _DEFERRED_ without Core Data's <32 hex digits>__<column> shape", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note]),
                         store: .fixture("V1", rows: 3, sql: [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_oops" VARCHAR"#]), expected: 1),
            .project("a V2 store whose removed ZBODY waits for finishDeferredLightweightMigration()", files: RuleExampleFixtures.project([RuleExampleFixtures.noteWithBody, RuleExampleFixtures.note]),
                         store: .fixture("V2", rows: 3, sql: [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_0123456789ABCDEF0123456789ABCDEF__ZBODY" VARCHAR"#]),
                         expected: 0),
        ])
}
