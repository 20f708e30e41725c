import ChainPlanCore

extension DiagnosticCode {
    /// CP107 VersionMissingFromChain: a model version is not in the chain.
    package static let versionMissingFromChain = DiagnosticCode(
        "CP107", name: "VersionMissingFromChain", severity: .error,
        summary: "A model version is not in the chain",
        help: "A store created by this model version has no migration path: the app fails to open it. Add the version to the chain, or delete the version from the bundle if it never shipped.",
        examples: [
            .chain("a version left out", spec: #"["A", "C"]"#, bundleVersions: ["A", "B", "C"], currentVersion: "C",
                         expected: [(1, 1)]),
            .chain("an empty chain covers every version", spec: "[]", bundleVersions: ["A", "B"],
                         currentVersion: "B", expected: []),
            .chain("all versions chained", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B",
                         expected: []),
        ])
}

/// CP107: a model version of the bundle is not in the chain, so a store created by it
/// has no migration path (an empty chain migrates every version directly and is exempt, and
/// a guessed chain's versions after the current one are CP110's).
package struct VersionMissingFromChainCheck: ChainCheck {
    package static let code = DiagnosticCode.versionMissingFromChain

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard let bundle = context.bundle, context.spec.form != .empty else { return [] }
        // A guessed chain leaves out the versions after the current one; CP110 names them.
        let chained = Set(context.spec.arrayEntries.map(\.value)
            + context.spec.treeEntries.flatMap { [$0.source.value, $0.destination.value] }
            + (context.spec.inferredOrder?.leftOut ?? []))
        var findings = FindingList(Self.code)
        for version in bundle.versions where !chained.contains(version.name) {
            findings.add(Diagnostic(Self.code, "model version '\(version.name)' is not in the chain: a store at that version cannot migrate",
                                    at: context.spec.chainLocation, versions: [version.name]))
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}
