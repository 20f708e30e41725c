import Foundation
import Testing
@testable import ChainPlanKit

@Suite struct StoreExplore {
    @Test(arguments: StoreCorpus.cases)
    func explore(_ item: StoreCorpus.Case) throws {
        let metadata = try StoreReader().read(storeAt: StoreCorpus.url(item.store).path, displayPath: item.description)
        let versions = try StoreCorpus.versions(item.bundle)
        let compiled = try item.momd.map { try CompiledModelInfo.read(momdAt: StoreCorpus.url($0).path) }
        let result = StoreIdentifier.identify(metadata: metadata, versions: versions, compiled: compiled)
        print("== \(item): \(result.detectedVersion ?? "nil") \(result.evidence?.rawValue ?? "-") top: \(result.candidates.prefix(4).map { "\($0.version)=\(String(format: "%.3f", $0.score))" })")
        if let expected = item.version, let candidate = result.candidates.first(where: { $0.version == expected }) {
            let expectedFP = StoreFingerprint(model: versions.first { $0.name == expected }!.model!)
            let diff = expectedFP.differences(from: StoreFingerprint(store: metadata))
            print("   \(expected) score \(candidate.score): \(diff.summary(limit: 20))")
        }
        for d in result.diagnostics { print("   \(d.code.rawValue) \(d.severity): \(d.message)") }
    }
}
