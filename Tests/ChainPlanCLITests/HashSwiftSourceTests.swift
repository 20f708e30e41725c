import ChainPlanTestSupport
import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanHashing

/// In-process runs of `chainplan hash` on SwiftData sources: the fixture folder
/// `Tests/Fixtures/SwiftData/Trips` (two schemas in two files, models in extensions, a custom
/// stage) and broken or unresolvable sources written by the tests.
@Suite("chainplan hash on Swift sources")
struct HashSwiftSourceTests {
    static let trips = Golden.fixtures.appendingPathComponent("SwiftData/Trips").path

    static func temporaryFolder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-hash-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    @Test func jsonNamesEachSchemaWithItsIdentifier() async throws {
        let run = await OutputCapture.run(["hash", Self.trips, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty, "\(run.error)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.map { $0["version"] as? String } == ["TripsSchemaV1", "TripsSchemaV2"])
        #expect(versions.map { $0["identifier"] as? String } == ["1.0.0", "2.0.0"])
        #expect((versions[0]["entities"] as? [String: String]).map { Array($0.keys) } == ["Trip"])
        #expect((versions[1]["entities"] as? [String: String]).map { Set($0.keys) } == ["Trip", "Stop"])
        for version in versions {
            let entities = try #require(version["entities"] as? [String: String])
            let raw = entities.mapValues { Data(base64Encoded: $0) ?? Data() }
            #expect(version["checksum"] as? String == VersionHasher.checksum(raw))
            #expect(version["digest"] as? String == VersionHasher.digest(raw))
            #expect(version["unverified"] == nil)
        }
    }

    @Test func textShowsTheIdentifier() async throws {
        let run = await OutputCapture.run(["hash", Self.trips, "--version", "TripsSchemaV2"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "TripsSchemaV2")
        #expect(lines.dropFirst().first == "  identifier 2.0.0")
        #expect(lines.contains { $0.hasPrefix("  checksum ") })
        #expect(lines.contains { $0.hasPrefix("  Stop ") })
    }

    @Test func unparsableSourceExitsTwoWithItsPlace() async throws {
        let folder = try Self.temporaryFolder(["Models.swift": "import SwiftData\n@Model final class Trip {\n    var name: String\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["hash", folder.path])
        #expect(run.status == 2)
        #expect(run.error.contains("Models.swift:"), "\(run.error)")
        #expect(run.error.contains("CP601"), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test func unresolvableTypeIsReportedAndTheVersionHasNoHashes() async throws {
        let folder = try Self.temporaryFolder(["App.swift": """
            import SwiftData
            import MapKit
            @Model final class Place { var spot: CLLocationCoordinate2D? }
            let container = try ModelContainer(for: Place.self)
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["hash", folder.path])
        #expect(run.status == 0)
        #expect(run.error.contains("App.swift:3:"), "\(run.error)")
        #expect(run.error.contains("CP602"), "\(run.error)")
        #expect(run.output.contains("ModelContainer\n  identifier 1.0.0\n  no hashes: "), "\(run.output)")
    }

    @Test func openRulesPrintUnverified() async throws {
        let folder = try Self.temporaryFolder(["App.swift": """
            import SwiftData
            @Model final class Item { var count: UInt8 = 0 }
            let container = try ModelContainer(for: Item.self)
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["hash", folder.path, "--format", "json"])
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let unverified = try #require((document["versions"] as? [[String: Any]])?.first?["unverified"] as? [String])
        #expect(unverified.contains { $0.contains("UInt8") })
    }
}

extension CorpusTests {
    /// `chainplan hash` on FreezeRay's Swift sources prints the checksums Apple wrote to its stores.
    @Suite("chainplan hash on the SwiftData corpus")
    struct HashSwiftSourceCorpusTests {
        @Test func freezeRayChecksums() async throws {
            let folder = SharedCorpus.corpus.appendingPathComponent("swiftdata/TrinsicVentures__FreezeRay/FreezeRayTestApp/FreezeRayTestApp")
            let run = await OutputCapture.run(["hash", folder.path, "--format", "json"])
            #expect(run.status == 0, "\(run.error)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let versions = try #require(document["versions"] as? [[String: Any]])
            let checksums = Dictionary(uniqueKeysWithValues: versions.compactMap { entry in
                (entry["version"] as? String).map { ($0, entry["checksum"] as? String ?? "") }
            })
            #expect(checksums["AppSchemaV1"] == "hVf/dkygPyXWgY+Jcgvx9sMUcaiS0yfaIlBvgiRFqr4=")
            #expect(checksums["AppSchemaV2"] == "vYclKAIUuGnEdsZfWYGeTfATZeMMc3+o0OnpOa5KyZM=")
        }
    }
}
