import ChainPlanCore
import ChainPlanReaders
import Foundation

/// The hashes of one version of a bundle, or why it has none.
public struct VersionHashes: Sendable, Hashable {
    public var version: String
    /// The display path of the version's `contents` (or folder).
    public var path: String
    public var result: Result<ModelHashes, HashFailure>

    public init(version: String, path: String, result: Result<ModelHashes, HashFailure>) {
        self.version = version
        self.path = path
        self.result = result
    }

    public var hashes: ModelHashes? {
        if case .success(let hashes) = result { return hashes }
        return nil
    }

    public var failure: HashFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    /// Hashes `version`. A legacy (Xcode 3, binary `elements`) version and an unreadable one
    /// are failures: their hash inputs cannot be read exactly. `withProperties: false` leaves
    /// every property hash out (`ModelHasher.hash(_:withProperties:)`).
    public init(_ version: ModelVersion, withProperties: Bool = true) {
        self.version = version.name
        self.path = version.path
        if version.isLegacyFormat {
            isLegacy = true
            result = .failure(HashFailure("version '\(version.name)' is a legacy Xcode 3 model (binary 'elements', no 'contents'): its hash inputs cannot be read exactly, so chainplan computes no hash for it"))
        } else if let model = version.model {
            result = ModelHasher.hash(model, withProperties: withProperties)
        } else {
            result = .failure(HashFailure("version '\(version.name)' could not be read"))
        }
    }

    /// True for a legacy (Xcode 3) version, which CP112 already reports.
    public var isLegacy = false
}

extension ModelBundle {
    /// Every version's hashes, in history order (versions hashed in parallel); property hashes
    /// only `withProperties`.
    public func versionHashes(withProperties: Bool = true) -> [VersionHashes] {
        Parallel.map(versions) { VersionHashes($0, withProperties: withProperties) }
    }
}
