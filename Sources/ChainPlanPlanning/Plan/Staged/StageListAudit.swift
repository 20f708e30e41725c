import ChainPlanCore
import ChainPlanInference
import ChainPlanReaders
import Foundation
import Yams

/// Audits a stage list an app already has against Core Data's rules (reference §6.1), with the
/// same checks and simulation as chainplan's own plans: a JSON list of stages
/// (`[{"kind": "lightweight", "checksums": [...]}, {"kind": "custom", "checksums": [current, next],
/// "handlers": true}]`, or the `{"stages": [...]}` object `chainplan stage --format json` writes),
/// or a Swift source whose 44-character checksum literals are scraped.
public enum StageListAudit {
    public struct Input: Sendable {
        /// The versions oldest first, the app model last.
        public var order: [String]
        public var identities: VersionIdentities
        public var bundle: ModelBundle
        public var mappingModels: [StepKey: StepMappingModel]

        public init(order: [String], identities: VersionIdentities, bundle: ModelBundle, mappingModels: [StepKey: StepMappingModel] = [:]) {
            self.order = order
            self.identities = identities
            self.bundle = bundle
            self.mappingModels = mappingModels
        }
    }

    /// The largest stage list read.
    public static let maxBytes = 4 << 20

    /// Reads and audits the stage list `text` (display path `file`). Unreadable lists give CP100.
    public static func audit(_ text: String, file: String, input: Input) -> (starts: [StageRun], findings: [Diagnostic]) {
        if file.hasSuffix(".swift") { return auditSwift(text, file: file, input: input) }
        switch read(text, file: file) {
        case .failure(let problem):
            return ([], [problem.diagnostic])
        case .success(let (stages, locations)):
            return run(stages, locations: locations, file: file, input: input)
        }
    }

    /// The stages of a JSON list, with where each is written.
    static func read(_ text: String, file: String) -> Result<([RuntimeStage], [SourceLocation]), Unreadable> {
        let composed = CheckedYAML.compose(Data(text.utf8), syntax: .json, what: "the stage list", maxBytes: maxBytes, limitOption: "a smaller file")
        func problem(_ message: String, _ node: Node?) -> Unreadable {
            Unreadable(diagnostic: Diagnostic(.unreadableSpec, message, at: SourceLocation(file: file, line: node?.mark?.line, column: node?.mark?.column)))
        }
        let root: Node
        switch composed {
        case .failure(let failure):
            return .failure(Unreadable(diagnostic: Diagnostic(.unreadableSpec, failure.message, at: SourceLocation(file: file, line: failure.line, column: failure.column))))
        case .success((nil, _)):
            return .failure(problem("the stage list is empty", nil))
        case .success((let node?, _)):
            root = node
        }
        var list = root
        if case .mapping(let mapping) = root {
            guard let stages = mapping["stages"] else { return .failure(problem("expected a list of stages, or an object with \"stages\"", root)) }
            list = stages
        }
        guard case .sequence(let sequence) = list else { return .failure(problem("expected a list of stages", list)) }
        var stages: [RuntimeStage] = []
        var locations: [SourceLocation] = []
        for element in sequence {
            guard case .mapping(let stage) = element, let kindText = stage["kind"]?.scalar?.string,
                  let kind = MigrationStage.Kind(rawValue: kindText) else {
                return .failure(problem("each stage is an object with \"kind\": \"lightweight\" or \"custom\" and \"checksums\"", element))
            }
            guard case .sequence(let checksums)? = stage["checksums"] else {
                return .failure(problem("a stage needs \"checksums\", a list of version checksums", element))
            }
            let keys = checksums.compactMap { $0.scalar?.string }
            guard keys.count == checksums.count, kind == .lightweight ? !keys.isEmpty : keys.count == 2 else {
                return .failure(problem(kind == .custom ? "a custom stage has two checksums: current and next" : "a lightweight stage lists at least one checksum", element))
            }
            let handlers = stage["handlers"]?.bool ?? (kind == .custom)
            stages.append(RuntimeStage(kind: kind, keys: keys, hasHandlers: handlers))
            locations.append(SourceLocation(file: file, line: element.mark?.line, column: element.mark?.column))
        }
        return .success((stages, locations))
    }

    /// Runs the §6.1 checks and every start's simulation on `stages`; findings of no stage of
    /// their own are at `location` (default: the file).
    static func run(_ stages: [RuntimeStage], locations: [SourceLocation], file: String, input: Input,
                    location: SourceLocation? = nil) -> (starts: [StageRun], findings: [Diagnostic]) {
        let order = input.order
        var nameOfKey: [String: String] = [:]
        for version in order { if let checksum = input.identities.byVersion[version]?.checksum, nameOfKey[checksum] == nil { nameOfKey[checksum] = version } }
        let keyOf: (String) -> String = { input.identities.byVersion[$0]?.checksum ?? $0 }
        let name: (String) -> String = { nameOfKey[$0] ?? $0 }
        let representatives = order.filter { nameOfKey[keyOf($0)] == $0 }
        let judge = JumpJudge(classifier: StepClassifier(bundle: input.bundle, mappingModels: input.mappingModels), order: representatives)
        let app = keyOf(order.last ?? "")
        let index = RuntimeStageIndex(stages)
        let starts = order.map { version in
            StageSimulation.run(store: keyOf(version), app: app, stages: stages, index: index, version: version, checksum: input.identities.byVersion[version]?.checksum,
                                name: name, judge: { judge.judge(name($0), name($1)) })
        }
        let audit = StageAudit(stages: stages, locations: locations, shipped: representatives.map(keyOf), app: app,
                               known: Set(nameOfKey.keys), name: name, starts: starts, location: location ?? SourceLocation(file: file))
        // The findings name every cause; the starts show what happens first: a list that cannot
        // be built crashes the app before any stage runs.
        guard let failure = StageConstruction.failure(stages, known: Set(nameOfKey.keys)) else { return (starts, audit.findings().sorted()) }
        return (starts.map { StageConstruction.crashed($0, failure) }, audit.findings().sorted())
    }

    /// A Swift source: every 44-character base64 string literal is a checksum. Literals naming no
    /// version are stale (CP506), shipped versions whose checksum is absent are unstaged (CP505).
    /// The stage structure itself is not parsed from Swift.
    static func auditSwift(_ text: String, file: String, input: Input) -> (starts: [StageRun], findings: [Diagnostic]) {
        var findings: [Diagnostic] = []
        var found: Set<String> = []
        let known = Dictionary(input.order.compactMap { version in input.identities.byVersion[version].map { ($0.checksum, version) } },
                               uniquingKeysWith: { first, _ in first })
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var column = 0
            var rest = Substring(line)
            while let quote = rest.firstIndex(of: "\"") {
                column += rest.distance(from: rest.startIndex, to: quote) + 1
                let after = rest[rest.index(after: quote)...]
                guard let close = after.firstIndex(of: "\"") else { break }
                let literal = String(after[..<close])
                if Self.isChecksum(literal) {
                    found.insert(literal)
                    if known[literal] == nil {
                        findings.append(.staleChecksumLiteral(literal, at: SourceLocation(file: file, line: index + 1, column: column)))
                    }
                }
                column += after.distance(from: after.startIndex, to: close) + 1
                rest = after[after.index(after: close)...]
            }
        }
        var reported: Set<String> = []
        for version in input.order {
            guard let checksum = input.identities.byVersion[version]?.checksum, !found.contains(checksum), reported.insert(checksum).inserted else { continue }
            let location = SourceLocation(file: file)
            findings.append(version == input.order.last ? .appModelNotInSource(version, checksum: checksum, at: location)
                                : .versionNotInSource(version, checksum: checksum, at: location))
        }
        return ([], findings.sorted())
    }

    /// A stage list that cannot be read (CP100).
    struct Unreadable: Error {
        var diagnostic: Diagnostic
    }

    /// 44 base64 characters ending in `=`: the shape of a SHA-256 `versionChecksum`.
    static func isChecksum(_ text: String) -> Bool {
        guard text.utf8.count == 44, text.hasSuffix("=") else { return false }
        return text.utf8.dropLast().allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2F }
    }
}
