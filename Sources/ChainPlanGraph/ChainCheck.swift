import ChainPlanCore
import ChainPlanReaders
import Foundation

/// Everything a chain check may look at.
package struct ChainContext: Sendable {
    package let spec: ChainSpec
    package let graph: ChainGraph
    /// The model bundle, when one was given and could be read.
    package let bundle: ModelBundle?
    package let target: TargetResolution
    /// Fates of every version with respect to the target.
    package let reachability: Reachability
    /// Cycles of the graph, found independently of the target.
    package let cycles: [[Int]]
    /// True when no spec was given and the chain was inferred from a bundle's version names.
    package let isInferred: Bool

    package init(spec: ChainSpec, graph: ChainGraph, bundle: ModelBundle?, isInferred: Bool) {
        self.spec = spec
        self.graph = graph
        self.bundle = bundle
        self.isInferred = isInferred
        let target = TargetResolution(spec: spec, graph: graph, bundle: bundle)
        self.target = target
        self.reachability = Reachability(graph: graph, target: target.version)
        self.cycles = Reachability(graph: graph, target: nil).cycles
    }

    /// Where a version is first written, or the spec itself.
    package func location(of version: Int) -> SourceLocation {
        graph.firstLocation[version] ?? SourceLocation(file: spec.file)
    }
}

/// A check over the chain. Each check reports one code and lives in that code's rule file
/// (`Rules/SelfLoop.swift`), beside the code's declaration and examples.
package protocol ChainCheck: Sendable {
    static var code: DiagnosticCode { get }
    func check(_ context: ChainContext) -> [Diagnostic]
}

/// The findings of one check, at most `limit` listed: past that they are only counted, and one
/// closing finding of the same code says how many more there were. A hostile spec can repeat a
/// version millions of times; the exit status is the same either way, as the listed findings
/// carry the severity.
package struct FindingList: Sendable {
    /// Findings listed per code.
    package static let defaultLimit = 1_000

    package let code: DiagnosticCode
    package let limit: Int
    package private(set) var listed: [Diagnostic] = []
    package private(set) var omitted = 0

    package init(_ code: DiagnosticCode, limit: Int = FindingList.defaultLimit) {
        self.code = code
        self.limit = limit
    }

    /// Lists `finding` while there is room; otherwise only counts it (the finding, and its
    /// message, are never built).
    package mutating func add(_ finding: @autoclosure () -> Diagnostic) {
        if listed.count < limit { listed.append(finding()) } else { omitted += 1 }
    }

    /// The listed findings, and the closing one at `location` when some were left out.
    package func finished(at location: SourceLocation) -> [Diagnostic] {
        guard omitted > 0 else { return listed }
        return listed + [Diagnostic(code, severity: listed.first?.severity,
                                    (omitted == 1 ? "1 more finding of this kind is not listed" : "\(omitted) more findings of this kind are not listed")
                                        + " (chainplan lists the first \(limit) of each code)",
                                    at: location)]
    }
}

/// All chain checks, in code order.
package enum ChainChecks {
    package static let all: [any ChainCheck] = [
        DuplicateVersionCheck(),
        DuplicateKeyCheck(),
        SelfLoopCheck(),
        CycleCheck(),
        UnknownVersionCheck(),
        TargetCheck(),
        VersionMissingFromChainCheck(),
        UnreachableTargetCheck(),
        CurrentVersionCheck(),
        InferredOrderCheck(),
    ]

    package static func run(_ context: ChainContext) -> [Diagnostic] {
        all.flatMap { $0.check(context) }
    }
}
