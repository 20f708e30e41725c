import ChainPlanCore
import ChainPlanReaders
import Foundation
import Yams

/// `.chainplan.yml`: how serious each finding is for this project, and the limits it plans with.
///
/// ```yaml
/// rules:
///   CP209: off        # off | note | warning | error
///   CP202: error
/// stages:             # steps `chainplan stage` runs as custom migration stages
///   - "Model 2 -> Model 3"
/// thresholds:
///   max-listed-path-steps: 20000
///   max-spec-bytes: 1048576
///   heavyweight-memory-mb: 100   # dry run: CP303 above this; passes: packed under it (--memory-limit overrides it)
/// ```
///
/// Read from beside the spec (or `--config`). Every problem is a CP130 at its line and column,
/// and makes the input unusable (exit 2): a CI gate must not run on a configuration it misread.
public struct RuleConfiguration: Sendable, Hashable {
    public enum Setting: String, Sendable, Hashable, CaseIterable {
        case off, note, warning, error

        /// A setting as written in YAML. `false` means `off`: YAML 1.1 tools (and editors that
        /// reformat the file) read an unquoted `off` as the boolean false and write it back so.
        init?(yaml text: String) {
            let word = text.lowercased()
            self.init(rawValue: word == "false" ? "off" : word)
        }
    }

    public static let fileName = ".chainplan.yml"
    /// Largest configuration file accepted, in bytes.
    public static let maxBytes = 1 << 20

    /// Per code: off, or the severity to report it with.
    public var settings: [DiagnosticCode: Setting] = [:]
    /// Overrides of the planner's limits (`nil`: the default).
    public var maxListedPathSteps: Int?
    public var maxSpecBytes: Int?
    /// The dry run's CP303 threshold in MB, and the budget `passes` packs under (`--memory-limit`
    /// overrides it).
    public var heavyweightMemoryMB: Int?
    /// Steps `chainplan stage` makes custom migration stages (as the spec's `stages`).
    public var customStages: [StepKey] = []
    /// `deferredLightweightMigration: true`: the app passes the deferred lightweight migration option.
    public var deferredLightweightMigration: Bool?

    public init() {}

    /// The thresholds a configuration may set: each key with its bounds and the one field it sets.
    enum Threshold: String, CaseIterable {
        case maxListedPathSteps = "max-listed-path-steps"
        case maxSpecBytes = "max-spec-bytes"
        case heavyweightMemoryMB = "heavyweight-memory-mb"

        var range: ClosedRange<Int> {
            switch self {
            case .maxListedPathSteps: 0...100_000_000
            case .maxSpecBytes: 1...(1 << 30)
            case .heavyweightMemoryMB: 1...(1 << 20)
            }
        }

        /// The configuration field this threshold sets.
        var field: WritableKeyPath<RuleConfiguration, Int?> {
            switch self {
            case .maxListedPathSteps: \.maxListedPathSteps
            case .maxSpecBytes: \.maxSpecBytes
            case .heavyweightMemoryMB: \.heavyweightMemoryMB
            }
        }
    }

    /// Applies the settings: findings of an `off` code are dropped, the others take their configured
    /// severity. Applied once, to the whole report, before the exit status and every reporter.
    public func apply(to report: ChainReport) -> ChainReport {
        guard !settings.isEmpty else { return report }
        var copy = report
        copy.setFindings(apply(to: report.diagnostics))
        return copy
    }

    /// The findings under the settings: `off` codes dropped, the others at their configured severity.
    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !settings.isEmpty else { return diagnostics }
        return diagnostics.compactMap { diagnostic in
            switch settings[diagnostic.code] {
            case nil: diagnostic
            case .off?: nil
            case .note?: diagnostic.with(severity: .note)
            case .warning?: diagnostic.with(severity: .warning)
            case .error?: diagnostic.with(severity: .error)
            }
        }
    }

    /// Plan options with this configuration's thresholds.
    public func applying(to options: PlanOptions) -> PlanOptions {
        var options = options
        if let maxListedPathSteps { options.maxListedPathSteps = maxListedPathSteps }
        if let maxSpecBytes { options.maxSpecBytes = maxSpecBytes }
        if deferredLightweightMigration == true { options.deferredLightweightMigration = true }
        options.customStages = customStages
        return options
    }

    // MARK: Reading

    public struct ReadResult: Sendable {
        public var configuration: RuleConfiguration?
        public var diagnostics: [Diagnostic]
    }

    public static func read(fileAt url: URL, displayPath: String, codes: [DiagnosticCode]) -> ReadResult {
        switch FileAccess.readRegularFile(at: url, maxBytes: maxBytes) {
        case .success(let data):
            return read(data: data, displayPath: displayPath, codes: codes)
        case .failure(let problem):
            return ReadResult(configuration: nil, diagnostics: [
                Diagnostic(.invalidConfiguration, "cannot read the configuration: \(problem.description)", at: SourceLocation(file: displayPath)),
            ])
        }
    }

    public static func read(data: Data, displayPath: String, codes: [DiagnosticCode]) -> ReadResult {
        var reader = Reader(file: displayPath, codes: codes)
        switch CheckedYAML.compose(data, syntax: .yaml, what: "the configuration", maxBytes: maxBytes, limitOption: "1 MB") {
        case .failure(let failure):
            reader.report(failure.message, SourceLocation(file: displayPath, line: failure.line, column: failure.column))
        case .success((nil, _)):
            return ReadResult(configuration: RuleConfiguration(), diagnostics: [])
        case .success((let root?, _)):
            reader.interpret(root)
        }
        return ReadResult(configuration: reader.diagnostics.isEmpty ? reader.configuration : nil, diagnostics: reader.diagnostics)
    }

    private struct Reader {
        let file: String
        /// The codes `rules` may name.
        let codes: [DiagnosticCode]
        var configuration = RuleConfiguration()
        var diagnostics: [Diagnostic] = []

        init(file: String, codes: [DiagnosticCode]) {
            self.file = file
            self.codes = codes
        }

        mutating func report(_ message: String, _ location: SourceLocation) {
            diagnostics.append(Diagnostic(.invalidConfiguration, message, at: location))
        }

        func location(_ node: Node) -> SourceLocation {
            SourceLocation(file: file, line: node.mark?.line, column: node.mark?.column)
        }

        mutating func interpret(_ root: Node) {
            guard case .mapping(let mapping) = root else {
                return report("the configuration must be a mapping with 'rules' and 'thresholds'", location(root))
            }
            for (key, value) in mapping {
                switch key.string {
                case "rules"?: rules(value)
                case "thresholds"?: thresholds(value)
                case "stages"?: stages(value)
                case "$schema"?: break
                case "deferredLightweightMigration"?:
                    switch value.string {
                    case "true"?: configuration.deferredLightweightMigration = true
                    case "false"?: configuration.deferredLightweightMigration = false
                    default: report("'deferredLightweightMigration' must be true or false", location(value))
                    }
                default: report("unknown key '\(key.string ?? "?")' (expected 'rules', 'thresholds', 'stages' or 'deferredLightweightMigration')", location(key))
                }
            }
        }

        mutating func rules(_ node: Node) {
            guard case .mapping(let mapping) = node else { return report("'rules' must map codes to off, note, warning or error", location(node)) }
            var seen: Set<DiagnosticCode> = []
            for (key, value) in mapping {
                let name = key.string ?? ""
                guard let code = codes.code(name) else {
                    let close = codes.map(\.rawValue).filter { $0.prefix(3) == name.uppercased().prefix(3) }.prefix(5)
                    report("unknown code '\(name)'" + (close.isEmpty ? "" : " (codes like it: \(close.joined(separator: ", ")))")
                           + "; 'chainplan rules' lists them", location(key))
                    continue
                }
                guard seen.insert(code).inserted else {
                    report("\(code.rawValue) is configured twice", location(key))
                    continue
                }
                guard let text = value.string, let setting = Setting(yaml: text) else {
                    report("\(code.rawValue): '\(value.string ?? "?")' is not off, note, warning or error", location(value))
                    continue
                }
                if code.unusableInput, setting != .error {
                    report("\(code.rawValue) cannot be set to \(setting.rawValue): it means the input could not be used", location(value))
                    continue
                }
                configuration.settings[code] = setting
            }
        }

        mutating func stages(_ node: Node) {
            guard case .sequence(let sequence) = node else { return report("'stages' must list \"From -> To\" steps", location(node)) }
            for element in sequence {
                guard let text = element.string, let (from, to) = MappingStepKey.split(text) else {
                    report("stage step '\(element.string ?? "?")' must be written \"From -> To\"", location(element))
                    continue
                }
                configuration.customStages.append(StepKey(from: from, to: to))
            }
        }

        mutating func thresholds(_ node: Node) {
            guard case .mapping(let mapping) = node else { return report("'thresholds' must map names to whole numbers", location(node)) }
            for (key, value) in mapping {
                let name = key.string ?? ""
                guard let threshold = Threshold(rawValue: name) else {
                    report("unknown threshold '\(name)' (known: \(Threshold.allCases.map(\.rawValue).sorted().joined(separator: ", ")))", location(key))
                    continue
                }
                let range = threshold.range
                guard let text = value.string, let number = Int(text), range.contains(number) else {
                    report("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", location(value))
                    continue
                }
                configuration[keyPath: threshold.field] = number
            }
        }
    }
}
