import ChainPlanCore

extension DiagnosticCode {
    /// CP100 UnreadableSpec: the chain spec cannot be read or parsed.
    ///
    /// Raised where the input cannot be read, with the reader's reason: `SpecReader.swift`, `StageListAudit.swift`.
    package static let unreadableSpec = DiagnosticCode(
        "CP100", name: "UnreadableSpec", severity: .error, unusableInput: true,
        summary: "The chain spec cannot be read or parsed",
        help: "The file is missing, not a regular file, not UTF-8, too large, too deeply nested, not valid JSON or YAML, or not one of the supported forms (array, version tree, full form with a `chain` key, or null/[]/{}). Fix the file at the given location.",
        examples: [
            .project("a number where a version name belongs", files: [RuleExample.File("chain.json", #"["V1", 2]"#)], expected: 1),
            .project("version names are strings", files: [RuleExample.File("chain.json", #"["V1", "V2"]"#)], expected: 0),
        ])
}
