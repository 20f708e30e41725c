import ChainPlanCore

extension DiagnosticCode {
    /// CP130 InvalidConfiguration: the rule configuration is invalid.
    ///
    /// Raised where the input cannot be read, with the reader's reason: `RuleConfiguration.swift`.
    package static let invalidConfiguration = DiagnosticCode(
        "CP130", name: "InvalidConfiguration", severity: .error, unusableInput: true,
        summary: "The rule configuration is invalid",
        help: "`.chainplan.yml` names an unknown code, a severity other than off/note/warning/error, or a bad threshold.",
        examples: [
            .project("a code that does not exist", files: [RuleExample.File("chain.json", #"["V1", "V2"]"#),
                                                             RuleExample.File(".chainplan.yml", "rules:\n  CP999: off\n")], expected: 1),
            .project("a known code", files: [RuleExample.File("chain.json", #"["V1", "V2"]"#),
                                               RuleExample.File(".chainplan.yml", "rules:\n  CP209: off\n")], expected: 0),
        ])
}
