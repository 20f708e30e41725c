import ChainPlanTestSupport
import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanHashing
@testable import ChainPlanKit
@testable import ChainPlanReaders
@testable import ChainPlanSwiftSource

extension CorpusTests {
/// The SwiftData sources in `../shared/corpus/swiftdata` (its SOURCES.md): every entity hash,
/// checksum and digest that `truth.json` records (Apple-written, from FreezeRay's fixture
/// stores) is reproduced from the Swift source alone; pindrop's long history reads completely.
@Suite("SwiftData corpus")
struct SwiftDataCorpusTests {
    static let folder = SharedCorpus.corpus.appendingPathComponent("swiftdata")
    static let freezeRay = folder.appendingPathComponent("TrinsicVentures__FreezeRay/FreezeRayTestApp/FreezeRayTestApp")
    static let pindrop = folder.appendingPathComponent("watzon__pindrop/Pindrop")

    struct Truth: Decodable {
        struct Version: Decodable {
            var versioned_schema: String
            var NSStoreModelVersionHashes: [String: String]
            var NSStoreModelVersionChecksumKey: String
            var NSStoreModelVersionHashesDigest: String
            var NSStoreModelVersionIdentifiers: [String]
        }
        var versions: [String: Version]
    }

    static func truth() throws -> Truth {
        try JSONDecoder().decode(Truth.self, from: Data(contentsOf: folder.appendingPathComponent("truth.json")))
    }

    @Test func freezeRayReproducesEveryRecordedHash() throws {
        let truth = try Self.truth()
        #expect(truth.versions.count == 2)
        let (project, hashed) = SwiftDataPipeline.hash(sourcesAt: Self.freezeRay, displayPath: "FreezeRayTestApp", withProperties: false)
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics.map { "\($0.location?.description ?? "") \($0.message)" })")
        for (identifier, expected) in truth.versions.sorted(by: { $0.key < $1.key }) {
            let entry = try #require(hashed.first { $0.version.name == expected.versioned_schema }, "\(expected.versioned_schema)")
            #expect(entry.version.identifier == identifier)
            // The identifiers the store records are the one the reader read from the source.
            #expect(expected.NSStoreModelVersionIdentifiers == [entry.version.identifier ?? ""])
            #expect(entry.version.unverified.isEmpty, "\(entry.version.unverified)")
            let hashes = try #require(entry.hashes.hashes, "\(entry.hashes.failure?.message ?? "")")
            #expect(hashes.entities.mapValues { $0.base64EncodedString() } == expected.NSStoreModelVersionHashes)
            let (checksum, digest) = VersionHasher.checksumAndDigest(hashes.entities)
            #expect(checksum == expected.NSStoreModelVersionChecksumKey, "\(expected.versioned_schema)")
            #expect(digest == expected.NSStoreModelVersionHashesDigest, "\(expected.versioned_schema)")
        }
    }

    /// V3 has no store: its shape is checked, not its hashes (the inverse pair is implicit).
    @Test func freezeRayV3PairsTheImplicitInverse() throws {
        let project = SwiftDataReader.read(at: Self.freezeRay, displayPath: "FreezeRayTestApp")
        #expect(project.versions.map(\.name) == ["AppSchemaV1", "AppSchemaV2", "AppSchemaV3"])
        let v3 = try #require(project.versions.last?.model)
        #expect(v3.entities.map(\.name).sorted() == ["Post", "User"])
        #expect(v3.entity(named: "User")?.relationships.first?.inverseName == "author")
        #expect(v3.entity(named: "Post")?.relationships.first?.inverseName == "posts")
        let plan = try #require(project.plans.first)
        #expect(plan.name == "AppMigrations")
        #expect(plan.schemas == ["AppSchemaV1", "AppSchemaV2", "AppSchemaV3"])
        #expect(plan.stages.map { "\($0.kind.rawValue) \($0.from) → \($0.to)" } == [
            "lightweight AppSchemaV1 → AppSchemaV2", "lightweight AppSchemaV2 → AppSchemaV3",
        ])
    }

    /// pindrop (source only, no hashes): 12 plan versions plus the stray `TranscriptionRecordSchema`
    /// at 1.0.5 and the two 1.0.0 note schemas; 11 lightweight stages; live top-level models
    /// shared by every version; `TranscriptionRecordV1` → `TranscriptionRecord`.
    @Test func pindropReadsItsWholeHistory() throws {
        let project = SwiftDataReader.read(at: Self.pindrop, displayPath: "Pindrop")
        let shown = project.diagnostics.map { "\($0.location?.description ?? "") \($0.code.rawValue) \($0.message)" }
        #expect(!project.diagnostics.contains { $0.severity == .error }, "\(shown)")
        let names = Set(project.versions.map(\.name))
        #expect(names == Set((1...12).map { "TranscriptionRecordSchemaV\($0)" } + ["TranscriptionRecordSchema", "NoteSchema", "NoteSchemaV1"]))
        let plan = try #require(project.plans.first { $0.name == "TranscriptionRecordMigrationPlan" })
        #expect(plan.schemas == (1...12).map { "TranscriptionRecordSchemaV\($0)" })
        #expect(plan.stages.count == 11)
        #expect(plan.stages.allSatisfy { $0.kind == .lightweight })
        func version(_ name: String) -> SwiftSchemaVersion? { project.versions.first { $0.name == name } }
        #expect(version("TranscriptionRecordSchemaV1")?.identifier == "1.0.0")
        #expect(version("TranscriptionRecordSchemaV12")?.identifier == "1.0.11")
        #expect(version("TranscriptionRecordSchema")?.identifier == "1.0.5")
        #expect(version("NoteSchema")?.identifier == "1.0.0")
        let v1 = try #require(version("TranscriptionRecordSchemaV1")?.model, "\(version("TranscriptionRecordSchemaV1")?.failure ?? "")")
        #expect(v1.entity(named: "TranscriptionRecordV1") != nil)
        #expect(v1.entity(named: "PromptPreset")?.representedClassName == "PromptPreset")
        let v2 = try #require(version("TranscriptionRecordSchemaV2")?.model)
        #expect(v2.entity(named: "TranscriptionRecord") != nil)
        #expect(v2.entity(named: "TranscriptionRecordV1") == nil)
        for entry in project.versions {
            #expect(entry.model != nil, "\(entry.name): \(entry.failure ?? "")")
        }
    }
}
}
