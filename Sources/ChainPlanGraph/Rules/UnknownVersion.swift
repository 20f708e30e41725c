import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP105 UnknownVersion: a chain version is not in the model bundle.
    ///
    /// Raised by `UnknownVersionCheck` for a chain, and for a version `explain` or `passes` is given (`unknownVersion`, below).
    package static let unknownVersion = DiagnosticCode(
        "CP105", name: "UnknownVersion", severity: .error,
        summary: "A chain version is not in the model bundle",
        help: "Every version the chain names must exist as a `.xcdatamodel` in the bundle; otherwise Core Data cannot load it and migration fails at runtime (CoreStore: mappingModelNotFound). Check the spelling against the hint.",
        examples: [
            .chain("a typo", spec: #"["Model", "Model 2", "Modle 3"]"#,
                         bundleVersions: ["Model", "Model 2", "Model 3"], currentVersion: "Model 3", expected: [(1, 22)]),
            .chain("a target from another bundle", spec: "{\"chain\": [\"A\", \"B\"],\n \"target\": \"B\"}",
                         bundleVersions: ["A"], currentVersion: "A", expected: [(1, 17)]),
            .chain("every version exists", spec: #"["A", "B"]"#, bundleVersions: ["A", "B"], currentVersion: "B",
                         expected: []),
        ])
}

/// CP105: a version the chain names is not in the model bundle. Core Data cannot load
/// it, so migration through it fails at runtime. The nearest bundle names are given as a hint.
package struct UnknownVersionCheck: ChainCheck {
    package static let code = DiagnosticCode.unknownVersion

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        guard let bundle = context.bundle, !context.isInferred else { return [] }
        let known = Set(bundle.versionNames)
        var findings = FindingList(Self.code)
        for (number, name) in context.graph.versions.enumerated() where !known.contains(name) {
            guard let location = context.graph.firstLocation[number] else { continue }
            findings.add(.unknownVersion(name, in: bundle, at: location))
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}

extension Diagnostic {
    /// The finding for the version `name`, which `bundle` lacks, with the nearest names as a
    /// hint (a chain's version, or one `explain` or `passes` is given).
    package static func unknownVersion(_ name: String, in bundle: ModelBundle, at location: SourceLocation) -> Diagnostic {
        let hint = NameSuggestions.nearest(to: name, among: bundle.versionNames)
        let suffix = hint.isEmpty ? "" : "; did you mean \(NameSuggestions.phrase(hint))?"
        return Diagnostic(.unknownVersion, "version '\(name)' is not in the model bundle '\(bundle.name)'\(suffix)", at: location, versions: [name])
    }
}
