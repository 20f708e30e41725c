import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP203 CouldFailValidation: a step infers, but fails on stores with rows lacking a mandatory value.
    ///
    /// Raised for a lightweight step whose mapping has checks (`validationFinding`, called by `StepClassifier.findings`).
    package static let couldFailValidation = DiagnosticCode(
        "CP203", name: "CouldFailValidation", severity: .warning,
        summary: "A step infers, but fails on stores with rows lacking a mandatory value",
        help: "A new mandatory attribute or relationship without a default, or an optional one made mandatory without a default: Core Data infers the mapping and flags it \"could fail validation\"; the migration fails (134110) on a store where a row has no value (for a new one: as soon as the entity has a row). The finding lists the checks; `chainplan dry-run` counts them on a real store. Give the property a default value, or fill it in a custom stage first.",
        examples: [
            .versions("a new non-optional attribute without a default (infers; fails on stores with a Note)", versions: [RuleExampleFixtures.note, RuleExampleFixtures.pinnedNoDefault], expected: 1),
            .versions("with a default value", versions: [RuleExampleFixtures.note, RuleExampleFixtures.pinnedWithDefault], expected: 0),
        ])
}

extension StepClassifier {
    /// The CP203 finding of a lightweight step `from` → `to` with these checks (the first five
    /// named), at the step in the spec.
    static func validationFinding(_ checks: [ValidationCheck], from: String, to: String, at location: SourceLocation) -> Diagnostic {
        let shown = checks.prefix(5).map(\.condition).joined(separator: ", or ")
        let more = checks.count > 5 ? ", or \(checks.count - 5) more" : ""
        return Diagnostic(.couldFailValidation, "'\(from)' → '\(to)' infers, flagged \"could fail validation\": the migration fails (134110) on stores where "
                              + shown + more + " (a dry run counts them)",
                          at: location, versions: [from, to])
    }
}
