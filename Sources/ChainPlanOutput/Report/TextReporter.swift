import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
/// Human-readable text: compiler-style findings (`path:line:col: error: message [CP104]`)
/// and path listings. Names are made inert for terminals (see `TerminalText`).
package enum TextReporter {
    /// `store` and `entities`: a dry run's store, shown before the findings.
    package static func render(_ report: ChainReport, store: StoreReport? = nil, entities: [StoreEntityRows] = [],
                              options: RenderOptions = RenderOptions()) -> String {
        var out = ""
        if case .paths(let from) = options.view {
            out += renderPaths(report, from: from, color: options.color)
        }
        if let store {
            out += renderStore(store, entities: entities)
        }
        for diagnostic in report.diagnostics {
            out += line(for: diagnostic, color: options.color) + "\n"
        }
        if case .findings = options.view { return out }
        if case .diagnostics = options.view, let direct = directJumpsLine(report) {
            out += direct + "\n"
        }
        for line in DeferralLines.lines(report) { out += line + "\n" }
        if case .diagnostics = options.view, let lead = ErrorLead.line(report) { out += lead + "\n" }
        out += summaryLine(report, color: options.color) + "\n"
        return out
    }

    /// What happens to each start's store without the chain (one inferred jump to the target),
    /// counted by outcome; the starts whose jump fails or loses data are named (three at most).
    /// `paths` shows the same per path.
    static func directJumpsLine(_ report: ChainReport) -> String? {
        var starts: [String: [String]] = [:] // outcome → starts
        var named: Set<String> = [] // outcomes whose starts are named: the jump fails or loses data
        for path in report.paths {
            guard let direct = path.direct else { continue }
            let outcome = describe(direct)
            starts[outcome, default: []].append(path.start)
            if direct.inferable == false || !direct.lostComparedToChain.isEmpty { named.insert(outcome) }
        }
        guard !starts.isEmpty else { return nil }
        let parts = starts.keys.sorted().map { outcome -> String in
            let names = starts[outcome] ?? []
            guard named.contains(outcome) else { return "\(names.count) \(outcome)" }
            let shown = names.prefix(3).map { "'\(TerminalText.safe($0))'" }.joined(separator: ", ")
            return "\(names.count) \(outcome) (from \(shown)\(names.count > 3 ? " and \(names.count - 3) more" : ""))"
        }
        return "direct jumps to the target, without the chain: " + parts.joined(separator: ", ")
    }

    /// The dry run: the store, its version and evidence, its rows, and what each step does to it.
    static func renderStore(_ store: StoreReport, entities: [StoreEntityRows]) -> String {
        let safe = TerminalText.safe
        var out = "Store \(safe(store.path)) (\(store.walMode ? "WAL, " : "")\(NumberText.grouped(store.fileBytes)) bytes): "
        if let version = store.detectedVersion {
            out += "version '\(safe(version))' by \(store.evidence ?? "structure")\n"
        } else {
            out += "version unknown\n"
        }
        let close = store.candidates.prefix(3).map { "'\(safe($0.version))' \(NumberText.fixed($0.score, digits: 2))" }
        if !close.isEmpty { out += "  closest by structure: \(close.joined(separator: ", "))\n" }
        let rows = entities.reduce(0) { $0 + $1.rows }
        out += "  \(entities.count) entities, \(NumberText.grouped(rows)) rows"
        let largest = entities.sorted { ($0.rows, $1.name) > ($1.rows, $0.name) }.prefix(5).filter { $0.rows > 0 }
        if !largest.isEmpty { out += " (most: " + largest.map { "\(safe($0.name)) \(NumberText.grouped($0.rows))" }.joined(separator: ", ") + ")" }
        out += "\n"
        for step in store.steps {
            out += "  \(safe(step.from)) → \(safe(step.to)): \(step.migration?.rawValue ?? "unclassified"), \(step.work)"
            if !step.tables.isEmpty {
                out += " on " + step.tables.map { "\(safe($0.name)) (\(NumberText.grouped($0.rows)) rows)" }.joined(separator: ", ")
            }
            if let bytes = step.estimatedMemoryBytes { out += ", about \(ByteSize.describe(bytes)) held in memory" }
            out += "\n"
            if let simulation = step.simulation { out += "    " + describe(simulation) + "\n" }
        }
        for line in store.deferralTextLines() { out += line + "\n" }
        return out
    }

    /// `simulated: 9 statements in 0.03 s; ZITEM table rebuilt and copied (1,000 rows); 2 indexes created`
    static func describe(_ simulation: StepSimulation) -> String {
        let safe = TerminalText.safe
        var parts: [String] = []
        var indexes: [String: Int] = [:]
        for operation in simulation.operations {
            if operation.kind.hasPrefix("index ") {
                indexes[String(operation.kind.dropFirst(6)), default: 0] += 1
                continue
            }
            var part = "\(safe(operation.table)) \(operation.kind)"
            if !operation.detail.isEmpty { part += " " + operation.detail.map(safe).joined(separator: ", ") }
            if operation.kind != "columns added", operation.kind != "columns deferred", operation.kind != "table dropped",
               operation.rows > 0 || operation.kind != "table created" {
                part += " (\(NumberText.grouped(operation.rows)) \(operation.rows == 1 ? "row" : "rows"))"
            }
            parts.append(part)
        }
        for (kind, count) in indexes.sorted(by: { $0.key < $1.key }) {
            parts.append("\(count) \(count == 1 ? "index" : "indexes") \(kind)")
        }
        if parts.isEmpty { parts.append("no table changes") }
        return "simulated: \(simulation.statements) statements in \(NumberText.fixed(simulation.seconds, digits: 2)) s; " + parts.joined(separator: "; ")
    }

    /// One finding in compiler style.
    package static func line(for diagnostic: Diagnostic, color: Bool) -> String {
        let location = diagnostic.location.map { TerminalText.safe($0.description) + ": " } ?? ""
        let severity = paint(diagnostic.severity.rawValue, diagnostic.severity.ansi, color)
        let accepted = diagnostic.accepted.map { " (accepted: \(TerminalText.safe($0)))" } ?? ""
        return "\(location)\(severity): \(TerminalText.safe(diagnostic.message)) [\(diagnostic.code.rawValue)]\(accepted)"
    }

    static func summaryLine(_ report: ChainReport, color: Bool) -> String {
        let s = report.summary
        let plural = Reporters.plural
        var parts = [plural(report.versions.count, "version"), plural(report.steps.count, "step")]
        let classified = report.steps.compactMap(StepLabel.init)
        if !classified.isEmpty {
            let counts = StepLabel.allCases.compactMap { label -> String? in
                let n = classified.filter { $0 == label }.count
                return n == 0 ? nil : "\(n) \(label.rawValue)"
            }
            parts[1] += " (\(counts.joined(separator: ", ")))"
        }
        if let target = report.target { parts.append("target '\(TerminalText.safe(target))'") }
        let counts = Reporters.counts(s)
        let verdict = s.verdict == "pass" ? paint("pass", "32", color) : paint("fail", "31;1", color)
        return "\(parts.joined(separator: ", ")): \(counts) — \(verdict)"
    }

    static func renderPaths(_ report: ChainReport, from: String?, color: Bool) -> String {
        var out = ""
        var kindByStep: [StepKey: StepLabel] = [:]
        for step in report.steps { if let label = StepLabel(step) { kindByStep[StepKey(from: step.from, to: step.to)] = label } }
        let paths = report.paths.filter { from == nil || $0.start == from }
        let width = min(40, paths.map { TerminalText.safe($0.start).count }.max() ?? 0)
        for path in paths {
            let start = TerminalText.safe(path.start)
            let padded = start.count < width ? start + String(repeating: " ", count: width - start.count) : start
            if path.reachable {
                if path.length == 0 {
                    out += "\(padded)  is the target\n"
                } else if let steps = path.steps {
                    let chain = abbreviated([path.start] + steps.map(\.to))
                    out += "\(padded)  \(chain)  (\(path.length ?? 0) step\(path.length == 1 ? "" : "s")\(kinds(of: steps, in: kindByStep)))"
                    if let direct = path.direct, (path.length ?? 0) > 1 { out += "  direct: \(describe(direct))" }
                    out += "\n"
                } else {
                    out += "\(padded)  → \(TerminalText.safe(path.next ?? "?")) → … (\(path.length ?? 0) steps)\n"
                }
            } else {
                let reason: String
                switch path.problem {
                case "dead-end": reason = "stops at '\(TerminalText.safe(path.stopsAt ?? "?"))'"
                case "cycle": reason = "enters a cycle through '\(TerminalText.safe(path.stopsAt ?? "?"))'"
                case "not-in-chain": reason = "is not in the chain"
                default: reason = "there is no single target"
                }
                out += "\(padded)  \(paint("cannot reach the target", "31", color)): \(reason)\n"
            }
        }
        return out
    }

    /// `: lightweight ×2, heavyweight` for classified paths, empty otherwise.
    static func kinds(of steps: [ChainReport.Step], in kindByStep: [StepKey: StepLabel]) -> String {
        let kinds = steps.compactMap { kindByStep[StepKey(from: $0.from, to: $0.to)] }
        guard !kinds.isEmpty else { return "" }
        var counts: [StepLabel: Int] = [:]
        for kind in kinds { counts[kind, default: 0] += 1 }
        return ": " + StepLabel.allCases.compactMap { kind in counts[kind].map { $0 == 1 ? kind.rawValue : "\(kind.rawValue) ×\($0)" } }
            .joined(separator: ", ")
    }

    /// How a classified step reads in text: a heavyweight step without its mapping model
    /// fails at runtime, so it is never shown as plain "heavyweight".
    enum StepLabel: String, CaseIterable {
        case none
        case lightweight
        case heavyweight
        case needsMappingModel = "needs a mapping model"
        case unknown

        init?(_ step: ChainReport.Step) {
            guard let migration = step.migration else { return nil }
            switch migration {
            case .none: self = .none
            case .lightweight: self = .lightweight
            case .heavyweight: self = step.mappingModel == nil ? .needsMappingModel : .heavyweight
            case .unknown: self = .unknown
            }
        }
    }

    static func describe(_ direct: DirectJump) -> String {
        if direct.inferable == false { return "not inferable" }
        if !direct.lostComparedToChain.isEmpty { return "infers but loses data" }
        return direct.migration.rawValue
    }

    /// `A → B → C`, with the middle elided for long paths.
    static func abbreviated(_ names: [String]) -> String {
        let safe = names.count > 12
            ? names.prefix(5).map(TerminalText.safe) + ["… \(names.count - 8) more …"] + names.suffix(3).map(TerminalText.safe)
            : names.map(TerminalText.safe)
        return safe.joined(separator: " → ")
    }

    static func paint(_ text: String, _ code: String, _ enabled: Bool) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension Severity {
    var ansi: String {
        switch self {
        case .error: "31;1"
        case .warning: "33;1"
        case .note: "36"
        }
    }
}
