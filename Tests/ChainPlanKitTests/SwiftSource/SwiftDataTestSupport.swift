import Foundation
@testable import ChainPlanCore
@testable import ChainPlanHashing
@testable import ChainPlanReaders
@testable import ChainPlanSwiftSource

/// Helpers for the SwiftData reader's tests.
enum SwiftDataTestSupport {
    /// `Tests/Fixtures/SwiftData`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/SwiftData")

    /// Reads Swift files given as (path, text).
    static func read(_ files: [(String, String)]) -> SwiftDataProject {
        SwiftDataReader.read(files: files.map { (path: $0.0, text: $0.1) })
    }

    /// `body` (model classes and more) nested in `enum SchemaV1: VersionedSchema` at 1.0.0,
    /// whose `models` lists `models`; the schema starts on line 2 of `Models.swift`.
    static func schema(_ body: String, models: [String] = ["Thing"], after: String = "") -> String {
        """
        import SwiftData
        enum SchemaV1: VersionedSchema {
            static let versionIdentifier = Schema.Version(1, 0, 0)
            static var models: [any PersistentModel.Type] { [\(models.map { "\($0).self" }.joined(separator: ", "))] }
        \(body)
        }
        \(after)
        """
    }

    /// The one version of a `schema(…)` source.
    static func version(_ source: String) -> SwiftSchemaVersion? {
        read([("Models.swift", source)]).versions.first
    }

    /// Entity name → base64 hash of a model.
    static func entityHashes(_ model: ObjectModel) -> [String: String]? {
        guard case .success(let hashes) = ModelHasher.hash(model) else { return nil }
        return hashes.entities.mapValues { $0.base64EncodedString() }
    }

    /// Entity hashes of `<entity>` XML (the Core Data model the Swift source should map to).
    static func xmlHashes(_ entities: String) -> [String: String]? {
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(entities)
        </model>
        """
        let parsed = ModelContentsParser(maxBytes: ModelContentsParser.defaultMaxBytes).parse(Data(xml.utf8), file: "contents", version: "V")
        return parsed.model.flatMap(entityHashes)
    }
}
