import ChainPlanCore
import ChainPlanGraph
import ChainPlanInference
import ChainPlanReaders
import Foundation

/// The planning runs behind `RuleExample`s of chain checks, classification and staged migration:
/// the real parser, checks, classifier and stage synthesis or audit on the example's input.
/// Kit's `RuleExample.run()` calls them; so do `chainplan rules CPnnn` and the tests.
package enum RuleExampleRuns {
    /// Plans a spec (as `chain.json` or `chain.yaml`) against a bundle of empty model versions
    /// when `bundleVersions` names some.
    package static func chain(spec: String, syntax: RuleExample.SpecSyntax, bundleVersions: [String]?, currentVersion: String?) -> [Diagnostic] {
        let readerSyntax: SpecSyntax = syntax == .json ? .json : .yaml
        let read = SpecReader(codes: PlanningRules.all).read(data: Data(spec.utf8), displayPath: syntax == .json ? "chain.json" : "chain.yaml", syntax: readerSyntax)
        guard let parsed = read.spec else { return read.diagnostics }
        let bundle = bundleVersions.map { names in
            ModelBundle(name: "Model", path: "Model.xcdatamodeld",
                        versions: names.map { ModelVersion(name: $0, path: "Model.xcdatamodeld/\($0).xcdatamodel/contents", model: ObjectModel()) },
                        currentVersion: currentVersion)
        }
        return (ChainPlanner().plan(spec: parsed, bundle: bundle, isInferred: false).diagnostics + read.diagnostics).sorted()
    }

    /// Classifies the chain `V1 → V2 → …` of these versions' entities; a mapping model covers
    /// `V1` → `V2` when `mappingModelOnFirstStep`.
    package static func classify(_ versions: [String], mappingModelOnFirstStep: Bool) -> [Diagnostic] {
        let names = RuleExample.versionNames(versions.count)
        let (bundle, diagnostics) = bundle(versions)
        let spec = ChainSpec.inferred(versions: names, file: "chain.json")
        let context = ChainContext(spec: spec, graph: ChainGraph.build(from: spec), bundle: bundle, isInferred: false)
        let mappings = mappingModelOnFirstStep && names.count > 1
            ? [StepKey(from: names[0], to: names[1]): StepMappingModel(path: "V1ToV2.xcmappingmodel")] : [:]
        return (diagnostics + ChainClassification(context: context, bundle: bundle, mappingModels: mappings).diagnostics).sorted()
    }

    /// Audits `stages` (version names standing for their checksums) for these versions, or, when
    /// nil, makes chainplan's own plan. Version `V1`'s checksum is `sum-V1`, unless its index is
    /// in `sameChecksum`: then it has the version before's.
    package static func stages(_ versions: [String], sameChecksum: Set<Int>, stages: [[String]]?) -> (findings: [Diagnostic], plan: StagePlan?) {
        let names = RuleExample.versionNames(versions.count)
        let bundle = bundle(versions).bundle
        var identities: [String: VersionIdentity] = [:]
        var checksum = ""
        for (index, name) in names.enumerated() {
            if !sameChecksum.contains(index) { checksum = "sum-\(name)" }
            identities[name] = VersionIdentity(checksum: checksum)
        }
        let known = VersionIdentities(byVersion: identities, source: "example")
        guard let stages else {
            let plan = StageSynthesis(bundle: bundle, order: names, identities: known, location: SourceLocation(file: "chain.json")).plan()
            return (plan.findings, plan)
        }
        let runtime = stages.map { stage in
            RuntimeStage(kind: stage.first == "lightweight" ? .lightweight : .custom,
                         keys: stage.dropFirst().map { identities[$0]?.checksum ?? $0 }, hasHandlers: stage.first == "custom")
        }
        let locations = stages.indices.map { SourceLocation(file: "stages.json", line: $0 + 2, column: 3) }
        return (StageListAudit.run(runtime, locations: locations, file: "stages.json",
                                   input: StageListAudit.Input(order: names, identities: known, bundle: bundle)).findings, nil)
    }

    /// The bundle `Example.xcdatamodeld` of versions `V1`, `V2`, … made of these entities (the
    /// last current), and the parser's findings.
    package static func bundle(_ versions: [String]) -> (bundle: ModelBundle, diagnostics: [Diagnostic]) {
        let names = RuleExample.versionNames(versions.count)
        var diagnostics: [Diagnostic] = []
        var modelVersions: [ModelVersion] = []
        for (name, entities) in zip(names, versions) {
            let path = "Example.xcdatamodeld/\(name).xcdatamodel/contents"
            let parsed = ModelContentsParser().parse(Data(RuleExampleFixtures.contents(entities).utf8), file: path, version: name)
            diagnostics += parsed.diagnostics
            modelVersions.append(ModelVersion(name: name, path: path, model: parsed.model))
        }
        return (ModelBundle(name: "Example", path: "Example.xcdatamodeld", versions: modelVersions, currentVersion: names.last), diagnostics)
    }
}
