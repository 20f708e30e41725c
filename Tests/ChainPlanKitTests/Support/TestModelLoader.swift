import Foundation
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Loads models for tests through the real readers (`ModelBundleReader`, `ModelContentsParser`),
/// failing loudly when a file cannot be read.
enum TestModelLoader {
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Every version of a bundle, in natural version order (legacy versions have nil models).
    static func bundle(at url: URL) throws -> [ModelVersion] {
        let read = ModelBundleReader().read(bundleAt: url, displayPath: url.path)
        guard let bundle = read.bundle, !bundle.versions.isEmpty else {
            throw LoadError(description: "cannot read \(url.path): \(read.diagnostics.map(\.message))")
        }
        return bundle.versions
    }

    static func versions(ofBundleAt url: URL) throws -> [ModelVersion] { try bundle(at: url) }

    /// One `contents` file.
    static func model(at url: URL) throws -> ObjectModel {
        let data = try Data(contentsOf: url)
        let result = ModelContentsParser().parse(data, file: url.path)
        guard let model = result.model else {
            throw LoadError(description: "cannot parse \(url.path): \(result.diagnostics.map(\.message))")
        }
        return model
    }

    static func model(contentsAt url: URL) throws -> ObjectModel { try model(at: url) }
}
