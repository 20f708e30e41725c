import ChainPlanCore

extension DiagnosticCode {
    /// CP109 TargetNotCurrentVersion: the chain's target is not the bundle's current version.
    package static let targetNotCurrentVersion = DiagnosticCode(
        "CP109", name: "TargetNotCurrentVersion", severity: .warning,
        summary: "The chain's target is not the bundle's current version",
        help: "CoreStore bypasses the bundle's current version (`.xccurrentversion`) when a chain is given, so the app runs on the chain's leaf. Usually one of the two was not updated.",
        examples: [
            .chain("current version not updated", spec: #"["A", "B", "C"]"#, bundleVersions: ["A", "B", "C"],
                         currentVersion: "B", expected: [(1, 1)]),
            .chain("an explicit target", spec: "{\"chain\": [\"A\", \"B\"], \"target\": \"B\"}",
                         bundleVersions: ["A", "B"], currentVersion: "A", expected: [(1, 33)]),
            .chain("target is current", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B",
                         expected: []),
        ])
}

/// CP109: the chain's target is not the bundle's current version. CoreStore bypasses
/// `.xccurrentversion` when a chain is given, so one of the two is probably out of date.
package struct CurrentVersionCheck: ChainCheck {
    package static let code = DiagnosticCode.targetNotCurrentVersion

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard let bundle = context.bundle, let current = bundle.currentVersion,
              let target = context.target.version else { return [] }
        let name = context.graph.versions[target]
        guard name != current else { return [] }
        let location = context.spec.target?.location ?? context.spec.chainLocation
        return [Diagnostic(Self.code, "the chain's target '\(name)' is not the bundle's current version '\(current)'",
                           at: location, versions: [name, current])]
    }
}
