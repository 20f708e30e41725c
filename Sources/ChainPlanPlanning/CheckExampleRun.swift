import ChainPlanCore
import ChainPlanGraph
import ChainPlanReaders
import Foundation

extension CheckExample {
    /// Plans the example: the spec text (as `chain.json` or `chain.yaml`) against a bundle of
    /// empty model versions when it names some. Its test and `chainplan rules` both run this.
    public func run() -> [Diagnostic] {
        let read = SpecReader().read(data: Data(spec.utf8), displayPath: syntax == .json ? "chain.json" : "chain.yaml", syntax: syntax)
        guard let parsed = read.spec else { return read.diagnostics }
        let bundle = bundleVersions.map { names in
            ModelBundle(name: "Model", path: "Model.xcdatamodeld",
                        versions: names.map { ModelVersion(name: $0, path: "Model.xcdatamodeld/\($0).xcdatamodel/contents", model: ObjectModel()) },
                        currentVersion: currentVersion)
        }
        return (ChainPlanner().plan(spec: parsed, bundle: bundle, isInferred: false).diagnostics + read.diagnostics).sorted()
    }
}
