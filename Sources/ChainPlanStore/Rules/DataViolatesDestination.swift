import ChainPlanCore

extension DiagnosticCode {
    /// CP304 DataViolatesDestination: stored data violates the destination model.
    ///
    /// Raised in `MigrationSimulator.swift`.
    public static let dataViolatesDestination = DiagnosticCode(
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
