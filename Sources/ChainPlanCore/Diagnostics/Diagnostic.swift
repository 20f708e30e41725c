/// How serious a finding is. Ordered: `note` < `warning` < `error`.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Where a finding points: a file, and when known a 1-based line and column.
///
/// `file` is the path as the user should see it (relative to the working directory
/// whenever the file lies below it). Columns count Unicode scalars, as editors do.
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var file: String
    /// 1-based line, or nil when the finding concerns the whole file.
    public var line: Int?
    /// 1-based column, or nil when only the line is known.
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:col`, `path:line` or `path`, as compilers print it.
    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if (lhs.line ?? 0) != (rhs.line ?? 0) { return (lhs.line ?? 0) < (rhs.line ?? 0) }
        return (lhs.column ?? 0) < (rhs.column ?? 0)
    }
}

/// One finding. Every check, reader and classifier reports through this type.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// The stable code, e.g. `CP104`.
    public var code: DiagnosticCode
    public var severity: Severity
    /// One sentence, lower-case start allowed, no trailing period.
    public var message: String
    public var location: SourceLocation?
    /// The versions the finding concerns, in a meaningful order (e.g. cycle order).
    public var versions: [String]
    /// The reason given in the spec's `accept` when the finding is acknowledged: it is still
    /// reported (marked accepted), but no longer counts against the gate.
    public var accepted: String?

    public init(
        _ code: DiagnosticCode,
        severity: Severity? = nil,
        _ message: String,
        at location: SourceLocation? = nil,
        versions: [String] = []
    ) {
        self.code = code
        self.severity = severity ?? code.defaultSeverity
        self.message = message
        self.location = location
        self.versions = versions
    }

    /// A copy with another severity (used by `--strict` and rule configuration).
    public func with(severity: Severity) -> Diagnostic {
        var copy = self
        copy.severity = severity
        return copy
    }

    enum CodingKeys: String, CodingKey {
        case code, severity, message, file, line, column, versions, accepted
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([.code: code.rawValue, .severity: severity, .message: message, .file: location?.file,
                              .line: location?.line, .column: location?.column, .versions: versions])
        try container.encodeIfPresent(accepted, forKey: .accepted)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.code = try container.decode(DiagnosticCode.self, forKey: .code)
        self.severity = try container.decode(Severity.self, forKey: .severity)
        self.message = try container.decode(String.self, forKey: .message)
        if let file = try container.decodeIfPresent(String.self, forKey: .file) {
            self.location = SourceLocation(
                file: file,
                line: try container.decodeIfPresent(Int.self, forKey: .line),
                column: try container.decodeIfPresent(Int.self, forKey: .column)
            )
        } else {
            self.location = nil
        }
        self.versions = try container.decode([String].self, forKey: .versions)
        self.accepted = try container.decodeIfPresent(String.self, forKey: .accepted)
    }
}

extension Diagnostic: Comparable {
    /// Sorted by file, line, column, then code and message: the order every reporter prints.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        switch (lhs.location, rhs.location) {
        case let (l?, r?) where l != r: return l < r
        case (nil, .some): return false
        case (.some, nil): return true
        default: break
        }
        if lhs.code != rhs.code { return lhs.code.rawValue < rhs.code.rawValue }
        if lhs.message != rhs.message { return lhs.message < rhs.message }
        return lhs.versions.lexicographicallyPrecedes(rhs.versions)
    }
}

extension Array where Element == Diagnostic {
    /// The highest severity among the findings not accepted, or nil when there is none.
    public var maximumSeverity: Severity? { filter { $0.accepted == nil }.map(\.severity).max() }

    /// True when any finding's code marks the input as unusable (exit status 2).
    public var hasUnusableInput: Bool { contains { $0.code.unusableInput && $0.severity == .error && $0.accepted == nil } }
}
