import ChainPlanPlanning
import ChainPlanReaders
import Foundation

extension StoreInspection {
    /// Reads the store at `storePath` directly, read-only (its metadata, tables and columns), and
    /// with `bundle` identifies its version and checks its deferred columns against it.
    package static func inspect(storeAt storePath: String, displayPath shown: String, bundle: ModelBundle?) -> StoreInspection {
        let metadata: StoreMetadata
        do {
            metadata = try StoreReader().read(storeAt: storePath, displayPath: shown)
        } catch {
            return StoreInspection(path: shown, deferred: nil, diagnostics: [error.diagnostic])
        }
        let pending = StoreDeferredWork.pending(in: metadata)
        var diagnostics = metadata.diagnostics
        guard let bundle else { return StoreInspection(path: shown, deferred: pending, diagnostics: diagnostics.sorted()) }
        let identification = StoreIdentifier.identify(metadata: metadata, versions: bundle.versions, compiled: nil)
        diagnostics += identification.diagnostics
        if let detected = identification.detectedVersion, let model = bundle.version(named: detected)?.model {
            diagnostics += StoreDeferredWork.mismatches(pending, metadata: metadata, model: model, version: detected, displayPath: shown)
        }
        return StoreInspection(path: shown, detectedVersion: identification.detectedVersion, evidence: identification.evidence?.rawValue,
                               deferred: pending, diagnostics: diagnostics.sorted())
    }
}
