import ChainPlanCore
/// CP107: a model version of the bundle is not in the chain, so a store created by it
/// has no migration path (an empty chain migrates every version directly and is exempt).
public struct VersionMissingFromChainCheck: ChainCheck {
    public static let code = DiagnosticCode.versionMissingFromChain
    public static let examples = [
        CheckExample("a version left out", spec: #"["A", "C"]"#, bundleVersions: ["A", "B", "C"], currentVersion: "C",
                     expected: [(1, 1)]),
        CheckExample("an empty chain covers every version", spec: "[]", bundleVersions: ["A", "B"],
                     currentVersion: "B", expected: []),
        CheckExample("all versions chained", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B",
                     expected: []),
    ]

    public init() {}

    public func check(_ context: ChainContext) -> [Diagnostic] {
        guard let bundle = context.bundle, context.spec.form != .empty else { return [] }
        let chained = Set(context.spec.arrayEntries.map(\.value)
            + context.spec.treeEntries.flatMap { [$0.source.value, $0.destination.value] })
        var findings = FindingList(Self.code)
        for version in bundle.versions where !chained.contains(version.name) {
            findings.add(Diagnostic(Self.code, "model version '\(version.name)' is not in the chain: a store at that version cannot migrate",
                                    at: context.spec.chainLocation, versions: [version.name]))
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}
