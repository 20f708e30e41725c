import ChainPlanCore
import ChainPlanReaders
import Foundation

extension DiagnosticCode {
    /// CP119 UnclassifiedChain: the chain's steps were not classified: no model bundle.
    ///
    /// Raised when a spec names no bundle and none can be found for it (`namingBundle(of:specDirectory:)`, below).
    package static let unclassifiedChain = DiagnosticCode(
        "CP119", name: "UnclassifiedChain", severity: .error,
        summary: "The chain's steps were not classified: no model bundle",
        help: "A bare CoreStore chain (`[\"Model\", \"Model 2\"]`) names versions but not the bundle that holds them. chainplan looks for the one `.xcdatamodeld` under the spec's folder with every version; when there is none, or several, no step can be classified, so migration kinds, data loss and mapping models go unchecked and the chain cannot pass. Use the full form with `model`.",
        examples: [
            .project("a bare CoreStore array and no bundle under the spec's folder", files: [RuleExample.File("chain.json", #"["V1", "V2"]"#)],
                         expected: 1),
            .project("a bare array beside the bundle that holds its versions",
                         files: [RuleExample.File("chain.json", #"["V1", "V2"]"#), RuleExampleFixtures.version("V1", RuleExampleFixtures.note), RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V2")],
                         expected: 0),
        ])
}

/// A bare CoreStore chain (`["Model", "Model 2"]`, no `model:`) must not pass unchecked: its
/// steps can only be classified with the model bundle. The bundle is the one `.xcdatamodeld`
/// under the spec's folder that holds every version the chain names; when there is none, or
/// more than one, the report says classification was skipped and how to name the bundle
/// (CP119, an error: a chain whose steps were not classified never passes).
///
///     chain.json ["Model", "Model 2"] beside Model.xcdatamodeld (Model, Model 2) → model 'Model.xcdatamodeld'
///     chain.json ["Model", "Model 2"], no bundle under its folder                 → CP119
extension ProjectLoader {
    /// `spec` with `model` set to the bundle found for it, or the CP119 finding when none can be.
    func namingBundle(of spec: ChainSpec, specDirectory: URL) -> (ChainSpec, [Diagnostic]) {
        guard spec.model == nil, spec.form != .empty else { return (spec, []) }
        var names: [String] = spec.arrayEntries.map(\.value)
        for entry in spec.treeEntries { names += [entry.source.value, entry.destination.value] }
        var unique: [String] = []
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted { unique.append(name) }
        // A single version has no step to classify.
        guard unique.count > 1 else { return (spec, []) }
        let how = "name the bundle with the full form: {\"chain\": [...], \"model\": \"Path/To/Model.xcdatamodeld\"}"
        let skipped = "the spec names no model bundle, so no step was classified (migration kinds, data loss and mapping models are unchecked)"
        switch ModelBundleDiscovery.find(holding: unique, under: specDirectory) {
        case .found(let relative):
            var named = spec
            named.model = Located(relative, at: spec.chainLocation)
            return (named, [])
        case .none(let bundles):
            let found = bundles.isEmpty ? "no .xcdatamodeld is under the spec's folder"
                : "no .xcdatamodeld under the spec's folder holds all \(unique.count) versions (seen: \(bundles.quotedList))"
            return (spec, [Diagnostic(.unclassifiedChain, "\(skipped): \(found); \(how)", at: spec.chainLocation)])
        case .several(let bundles):
            return (spec, [Diagnostic(.unclassifiedChain, "\(skipped): \(bundles.count) bundles hold every version (\(bundles.quotedList)); \(how)",
                                      at: spec.chainLocation)])
        }
    }
}
