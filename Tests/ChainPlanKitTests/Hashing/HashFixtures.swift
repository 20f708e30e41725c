import Crypto
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

/// Helpers for the hashing tests.
enum HashFixtures {
    /// A to-one relationship as Xcode writes it (`optional="YES" maxCount="1"`).
    static func toOne(_ name: String, to destination: String, inverse: String?) -> Relationship {
        var relationship = Relationship(name: name, destinationEntity: destination, inverseName: inverse,
                                        inverseEntity: inverse == nil ? nil : destination, isOptional: true, maxCount: 1)
        relationship.hasWrittenMaxCount = true
        return relationship
    }

    /// Parses a `contents` body (entities) and hashes it.
    static func hash(_ body: String) throws -> ModelHashes {
        let parsed = ModelTestSupport.parse(ModelTestSupport.model(body))
        guard let model = parsed.model else { throw HashFailure("fixture did not parse: \(parsed.diagnostics)") }
        return try ModelHasher.hash(model).get()
    }
}

/// SHA-512 through swift-crypto directly, to check the digest's layout independently.
enum SHA512Reference {
    static func hash(_ data: Data) -> [UInt8] { Array(SHA512.hash(data: data)) }
}
