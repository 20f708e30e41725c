import ChainPlanCore
/// CP109: the chain's target is not the bundle's current version. CoreStore bypasses
/// `.xccurrentversion` when a chain is given, so one of the two is probably out of date.
public struct CurrentVersionCheck: ChainCheck {
    public static let code = DiagnosticCode.targetNotCurrentVersion
    public static let examples = [
        CheckExample("current version not updated", spec: #"["A", "B", "C"]"#, bundleVersions: ["A", "B", "C"],
                     currentVersion: "B", expected: [(1, 1)]),
        CheckExample("an explicit target", spec: "{\"chain\": [\"A\", \"B\"], \"target\": \"B\"}",
                     bundleVersions: ["A", "B"], currentVersion: "A", expected: [(1, 33)]),
        CheckExample("target is current", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B",
                     expected: []),
    ]

    public init() {}

    public func check(_ context: ChainContext) -> [Diagnostic] {
        guard let bundle = context.bundle, let current = bundle.currentVersion,
              let target = context.target.version else { return [] }
        let name = context.graph.versions[target]
        guard name != current else { return [] }
        let location = context.spec.target?.location ?? context.spec.chainLocation
        return [Diagnostic(Self.code, "the chain's target '\(name)' is not the bundle's current version '\(current)'",
                           at: location, versions: [name, current])]
    }
}
