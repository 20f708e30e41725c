import ChainPlanCore

extension DiagnosticCode {
    /// CP119 UnclassifiedChain: the chain's steps were not classified: no model bundle.
    ///
    /// Raised in `BareChain.swift`.
    public static let unclassifiedChain = DiagnosticCode(
        "CP119", name: "UnclassifiedChain", severity: .error,
        summary: "The chain's steps were not classified: no model bundle",
        help: "A bare CoreStore chain (`[\"Model\", \"Model 2\"]`) names versions but not the bundle that holds them. chainplan looks for the one `.xcdatamodeld` under the spec's folder with every version; when there is none, or several, no step can be classified, so migration kinds, data loss and mapping models go unchecked and the chain cannot pass. Use the full form with `model`.",
        examples: [
            .project("a bare CoreStore array and no bundle under the spec's folder", files: [RuleExample.File("chain.json", #"["V1", "V2"]"#)],
                         expected: 1),
            .project("a bare array beside the bundle that holds its versions",
                         files: [RuleExample.File("chain.json", #"["V1", "V2"]"#), RuleExampleFixtures.version("V1", RuleExampleFixtures.note), RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V2")],
                         expected: 0),
        ])
}
