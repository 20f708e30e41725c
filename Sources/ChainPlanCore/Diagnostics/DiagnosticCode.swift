/// A finding's code and what it means: the stable id (`CP104`) used in output, SARIF rule ids and
/// `.chainplan.yml`, with the rule's name, default severity, summary, help and worked examples.
///
/// Each code is declared once, as a static member of this type, in the file of its rule: a file
/// named for the rule (`SelfLoop.swift`) in the stage that detects it, beside its detection.
/// Kit's `RuleCatalogue` lists them all for `chainplan rules`, SARIF and `Docs/rules.md`.
/// Codes are equal, hashed and ordered by their id alone, and encoded as the id; a decoder finds
/// the code of an id in the list under `CodingUserInfoKey.diagnosticCodes`.
public struct DiagnosticCode: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The stable id, `CPnnn`.
    public let rawValue: String
    /// PascalCase name, used as the SARIF rule name.
    public let name: String
    public let defaultSeverity: Severity
    /// When true, an error with this code means the input could not be used (exit 2).
    public let unusableInput: Bool
    /// A short sentence (no trailing period) for lists.
    public let summary: String
    /// Why it matters and what to do, for `chainplan rules CPnnn` and SARIF help.
    public let help: String
    /// The rule's worked examples: `chainplan rules CPnnn` runs and shows them, and so do the tests.
    public let examples: [RuleExample]

    public init(_ rawValue: String, name: String, severity: Severity, unusableInput: Bool = false,
                summary: String, help: String, examples: [RuleExample]) {
        self.rawValue = rawValue
        self.name = name
        self.defaultSeverity = severity
        self.unusableInput = unusableInput
        self.summary = summary
        self.help = help
        self.examples = examples
    }

    public var description: String { rawValue }

    public static func == (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let id = try container.decode(String.self)
        guard let codes = decoder.userInfo[.diagnosticCodes] as? [DiagnosticCode] else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no codes to decode '\(id)' with (userInfo[.diagnosticCodes])")
        }
        guard let code = codes.code(id) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown code \(id)")
        }
        self = code
    }
}

extension CodingUserInfoKey {
    /// The codes (`[DiagnosticCode]`) a decoder looks a code's id up in.
    public static let diagnosticCodes = CodingUserInfoKey(rawValue: "chainplan.diagnosticCodes")!
}

extension Array where Element == DiagnosticCode {
    /// The code with this id (`cp104` matches `CP104`), if the list has it.
    public func code(_ id: String) -> DiagnosticCode? {
        let wanted = id.uppercased()
        return first { $0.rawValue == wanted }
    }
}
