import ChainPlanCore
import ChainPlanPlanning
/// How a report becomes a diagram.
package struct DiagramOptions: Sendable, Hashable {
    /// Highlight the path from this start version.
    package var highlightFrom: String?
    /// Add the direct jumps from start versions to the target that would fail or lose data.
    package var includeDirectJumps: Bool

    package init(highlightFrom: String? = nil, includeDirectJumps: Bool = false) {
        self.highlightFrom = highlightFrom
        self.includeDirectJumps = includeDirectJumps
    }
}

extension Diagram {
    /// The diagram of a plan: every version once, steps styled by migration kind, the target
    /// and the bundle's current version marked, unreachable versions and cycles highlighted.
    package init(report: ChainReport, options: DiagramOptions = DiagramOptions()) {
        let cycleMembers = Set(report.diagnostics.filter { $0.code == .migrationCycle }.flatMap(\.versions))
        let unknown = Set(report.diagnostics.filter { $0.code == .unknownVersion || $0.code == .legacyModelFormat }.flatMap(\.versions))
        let pathByStart = Dictionary(report.paths.map { ($0.start, $0) }, uniquingKeysWith: { first, _ in first })
        var highlighted: Set<StepKey> = []
        var highlightedVersions: Set<String> = []
        if let start = options.highlightFrom, let path = pathByStart[start] {
            highlightedVersions.insert(start)
            for step in path.steps ?? [] {
                highlighted.insert(StepKey(from: step.from, to: step.to))
                highlightedVersions.insert(step.to)
            }
        }
        let nodes = report.versions.map { name in
            Diagram.Node(
                id: name,
                isTarget: name == report.target,
                isCurrentVersion: name == report.model?.currentVersion,
                isUnreachable: pathByStart[name].map { !$0.reachable } ?? false,
                inCycle: cycleMembers.contains(name),
                isHighlighted: highlightedVersions.contains(name),
                isUnknown: unknown.contains(name))
        }
        // Classification findings (CP2xx) are about the step their two versions name.
        let findingsByStep = Dictionary(grouping: report.diagnostics.filter { $0.versions.count == 2 && $0.code.rawValue.hasPrefix("CP2") }) {
            StepKey(from: $0.versions[0], to: $0.versions[1])
        }
        var edges = report.steps.map { step in
            let key = StepKey(from: step.from, to: step.to)
            let cause = StepCause.of(step, findings: findingsByStep[key] ?? [])
            let mapping = step.mappingModel.map { Diagram.mappingModelName($0.path) }
            return Diagram.Edge(
                from: step.from, to: step.to, kind: Diagram.EdgeKind(step),
                inCycle: cycleMembers.contains(step.from) && cycleMembers.contains(step.to),
                isHighlighted: highlighted.contains(key),
                label: [mapping, cause?.text].compactMap { $0 }.joined(separator: "\n").nilIfEmpty,
                isWarning: cause?.isWarning ?? false)
        }
        if options.includeDirectJumps, let target = report.target {
            for path in report.paths where (path.length ?? 0) >= 2 {
                guard let direct = path.direct else { continue }
                let fails = direct.inferable == false
                let loses = !direct.lostComparedToChain.isEmpty
                guard fails || loses else { continue }
                edges.append(Diagram.Edge(from: path.start, to: target, kind: .failing, isDirectJump: true,
                                          isHighlighted: path.start == options.highlightFrom,
                                          label: fails ? "direct: not inferable" : "direct: loses data"))
            }
        }
        let title = report.model.map { "\($0.bundle) — target \(report.target ?? "none")" } ?? report.spec
        self.init(title: title, nodes: nodes, edges: edges, showLegend: true)
    }

    /// `AltStoreToAltStore2` from `…/AltStoreToAltStore2.xcmappingmodel`.
    static func mappingModelName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".xcmappingmodel") { name.removeLast(".xcmappingmodel".count) }
        return name
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension Diagram.EdgeKind {
    /// The drawing kind of a report step.
    init(_ step: ChainReport.Step) {
        switch step.migration {
        case .none?: self = .none
        case .lightweight?: self = .lightweight
        case .heavyweight? where step.mappingModel != nil: self = .heavyweight
        case .heavyweight?: self = .failing
        case .unknown?, nil: self = .unknown
        }
    }
}
