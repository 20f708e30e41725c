import ChainPlanCore

extension DiagnosticCode {
    /// CP304 DataViolatesDestination: stored data violates the destination model.
    ///
    /// Raised by the dry run's simulation (`dataViolatesDestination`, below; the checks are `StoreDataChecks`).
    package static let dataViolatesDestination = DiagnosticCode(
        "CP304", name: "DataViolatesDestination", severity: .error,
        summary: "Stored data violates the destination model",
        help: "Rows would fail validation after migration: NULLs in attributes that become non-optional, duplicates under a new uniqueness constraint, values outside new min/max, empty required to-one relationships.",
        examples: [
            .project("'age' gets the range 0…150 and a row holds 200", files: RuleExampleFixtures.project([RuleExampleFixtures.person, RuleExampleFixtures.personAgeRangeWithName]),
                         store: .fixture("V1", rows: 3, sql: ["UPDATE ZPERSON SET ZAGE = 40", "UPDATE ZPERSON SET ZAGE = 200 WHERE Z_PK = 1"]), expected: 1),
            .project("every age is in the range", files: RuleExampleFixtures.project([RuleExampleFixtures.person, RuleExampleFixtures.personAgeRangeWithName]),
                         store: .fixture("V1", rows: 3, sql: ["UPDATE ZPERSON SET ZAGE = 40"]), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for a row check of `from` → `to` that the store's data fails (a warning when
    /// it fails at the app's next save, not during the migration).
    static func dataViolatesDestination(_ message: String, failsAtNextSave: Bool, from: String, to: String, store: String) -> Diagnostic {
        let finding = Diagnostic(.dataViolatesDestination, "'\(from)' → '\(to)': \(message)", at: SourceLocation(file: store), versions: [from, to])
        return failsAtNextSave ? finding.with(severity: .warning) : finding
    }
}
