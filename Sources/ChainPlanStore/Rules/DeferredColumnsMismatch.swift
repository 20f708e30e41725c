import ChainPlanCore
import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders

extension DiagnosticCode {
    /// CP305 DeferredColumnsMismatch: the store's deferred columns do not match its model.
    ///
    /// Raised when a store's deferred work is checked against its version (`StoreDeferredWork.mismatches`, below).
    package static let deferredColumnsMismatch = DiagnosticCode(
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

extension StoreDeferredWork {
    /// CP305 for each pending table that does not match `model` (version `version`).
    package static func mismatches(_ pending: PendingDeferredWork, metadata: StoreMetadata, model: ObjectModel, version: String,
                                   displayPath: String) -> [Diagnostic] {
        guard !pending.tables.isEmpty else { return [] }
        let layout = StoreLayout(model: model)
        var expected: [String: StoreLayout.Table] = [:]
        for table in layout.tables { expected[table.name.uppercased()] = table }
        var findings: [Diagnostic] = []
        func finding(_ message: String) {
            findings.append(Diagnostic(.deferredColumnsMismatch, "store '\(displayPath)' at version '\(version)': \(message)",
                                       at: SourceLocation(file: displayPath), versions: [version]))
        }
        for table in pending.tables {
            let names = table.columns.map(\.column).joined(separator: ", ")
            guard let modelTable = expected[table.table.uppercased()] else {
                finding("table \(table.table) holds deferred columns (\(names)) but is no entity table of the model; "
                    + "finishDeferredLightweightMigration() copies only the model's tables, so they would never be finished")
                continue
            }
            let live = Set((metadata.table(named: table.table)?.columns ?? []).map { $0.name.uppercased() })
            let wanted = Set(modelTable.columns.map { $0.name.uppercased() })
            for column in table.columns {
                guard let original = column.original else {
                    finding("column \(table.table).\(column.column) starts with _DEFERRED_ but is not named _DEFERRED_<32 hex digits>__<column> as Core Data names deferred columns")
                    continue
                }
                if wanted.contains(original.uppercased()), !live.contains(original.uppercased()) {
                    finding("column \(table.table).\(original) was renamed \(column.column) by a deferred migration, but the model still reads \(original): "
                        + "the store is not at this version, or its schema was changed by hand")
                }
            }
        }
        return findings
    }
}
