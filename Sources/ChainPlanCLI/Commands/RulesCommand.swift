import ArgumentParser
import ChainPlanKit
import Foundation

/// `chainplan rules [CPnnn]`: every code chainplan reports, or one explained with its examples.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every finding code, or explain one with its examples.",
        discussion: """
            Examples are the ones the check's tests run: each is planned again here and its findings \
            printed. Severities can be changed per code in .chainplan.yml (off, note, warning, error).

            Examples:
              chainplan rules
              chainplan rules CP104
              chainplan rules --format json
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("A code to explain, e.g. CP104.", valueName: "code"))
    var code: String?

    @Option(help: "Output format.")
    var format: Format = .text

    @OptionGroup var color: ColorOptions

    func run() async throws {
        if let code {
            guard let known = DiagnosticCode(rawValue: code.uppercased()) else {
                throw UsageError("unknown code '\(code)'; 'chainplan rules' lists them")
            }
            let explanation = RuleExplanation(known)
            switch format {
            case .json: FileHandleOutput.standardOutput.write(JSONEnvelope.encode(explanation))
            case .text: FileHandleOutput.standardOutput.write(explanation.text)
            }
            return
        }
        switch format {
        case .json:
            FileHandleOutput.standardOutput.write(JSONEnvelope.encode(Rule.all.map { RuleExplanation($0.code, withExamples: false) }, as: "rules"))
        case .text:
            let width = Rule.all.map(\.name.count).max() ?? 0
            var out = ""
            for rule in Rule.all {
                let name = rule.name.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                out += "\(rule.code.rawValue)  \(severity)  \(name)  \(rule.summary)\n"
            }
            FileHandleOutput.standardOutput.write(out)
        }
    }
}

/// One code, for `rules CPnnn`: the catalogue entry and each of its examples (chain checks,
/// classification, input files) run again with the findings it produces.
struct RuleExplanation: Encodable {
    struct Example: Encodable {
        var title: String
        var spec: String
        var findings: [String]
    }

    /// The catalogue entry: its fields are the document's.
    var rule: Rule
    var examples: [Example]?

    var code: String { rule.code.rawValue }

    init(_ code: DiagnosticCode, withExamples: Bool = true) {
        rule = code.rule
        guard withExamples else { return }
        let chain = ChainChecks.examples(for: code).map { example in
            let findings = example.run().filter { $0.code == code }
            return Example(title: example.title, spec: example.spec, findings: findings.map { TextReporter.line(for: $0, color: false) })
        }
        let classification = ClassificationExamples.examples(for: code).map { example in
            let findings = example.run().filter { $0.code == code }
            let versions = zip(example.names, example.versions).map { "\($0): \($1)" }.joined(separator: "\n")
                + (example.mappingModelOnFirstStep ? "\n(a mapping model covers V1 → V2)" : "")
            return Example(title: example.title, spec: versions, findings: findings.map { TextReporter.line(for: $0, color: false) })
        }
        let input = InputExamples.examples(for: code).map { example in
            // An example that cannot be set up says so, rather than showing a finding it did not raise.
            let findings: [String]
            do {
                findings = try example.run().filter { $0.code == code }.map { TextReporter.line(for: $0, color: false) }
            } catch {
                findings = ["(the example could not be run: \(error))"]
            }
            return Example(title: example.title, spec: example.shownInput, findings: findings)
        }
        let staged = StageExamples.examples(for: code).map { example in
            let findings = example.run().filter { $0.code == code }
            return Example(title: example.title, spec: example.shown, findings: findings.map { TextReporter.line(for: $0, color: false) })
        }
        examples = chain + classification + input + staged
    }

    private enum CodingKeys: String, CodingKey { case examples }

    func encode(to encoder: any Encoder) throws {
        try rule.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(examples, forKey: .examples)
    }

    var text: String {
        var out = "\(code) \(rule.name) (default: \(rule.defaultSeverity.rawValue)\(rule.unusableInput ? ", unusable input: exit 2" : ""))\n\(rule.summary).\n\n\(rule.help)\n"
        for example in examples ?? [] {
            out += "\nExample: \(example.title)\n"
            out += example.spec.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n") + "\n"
            out += example.findings.isEmpty ? "  → no finding\n" : example.findings.map { "  → \($0)\n" }.joined()
        }
        return out
    }
}
