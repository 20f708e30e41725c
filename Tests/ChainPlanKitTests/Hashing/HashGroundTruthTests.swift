import ChainPlanTestSupport
import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Every piece of Apple-written hash ground truth in `../shared/corpus` (`core-data-internals.md`
/// §1.9), reproduced byte for byte from the models' XML. Part of the corpus group.
extension CorpusTests {
@Suite("Hash ground truth")
struct HashGroundTruthTests {
    static let coreDataPlus = "alemar11__CoreDataPlus/Tests/Resources"

    /// The hashes of every version of a corpus bundle, by version name.
    static func hashes(ofBundle relative: String) throws -> [String: ModelHashes] {
        var result: [String: ModelHashes] = [:]
        for version in try StoreCorpus.versions(relative) {
            result[version.name] = try VersionHashes(version).result.get()
        }
        return result
    }

    struct Compiled: Sendable, CustomTestStringConvertible {
        var name: String
        var bundle: String
        var momd: String
        var testDescription: String { name }
    }

    static let compiled = [
        Compiled(name: "SampleModel", bundle: "\(coreDataPlus)/SampleModel/SampleModel.xcdatamodeld",
                 momd: "\(coreDataPlus)/SampleModel/Fixtures/SampleModel.momd"),
        Compiled(name: "SampleModel3", bundle: "\(coreDataPlus)/SampleModel3/SampleModel3.xcdatamodeld",
                 momd: "\(coreDataPlus)/SampleModel3/Fixtures/SampleModel3.momd"),
    ]

    /// `VersionInfo.plist`: every entity hash and checksum of every version (18 entity, 3 checksum).
    @Test func versionInfo() throws {
        var entityRows = 0
        var checksumRows = 0
        for item in Self.compiled {
            let info = try CompiledModelInfo.read(momdAt: StoreCorpus.url(item.momd).path)
            let computed = try Self.hashes(ofBundle: item.bundle)
            #expect(Set(info.versionHashes.keys) == Set(computed.keys), "\(item.name)")
            for (version, recorded) in info.versionHashes {
                let mine = try #require(computed[version], "\(item.name) \(version)")
                for (entity, hash) in recorded {
                    #expect(mine.entities[entity] == hash, "\(version).\(entity)")
                    entityRows += 1
                }
                #expect(mine.entities.count == recorded.count, "\(version)")
                #expect(mine.isVerified, "\(version): \(mine.caveats)")
            }
            for (version, checksum) in info.versionChecksums {
                #expect(computed[version]?.checksum == checksum, "\(version)")
                checksumRows += 1
            }
        }
        #expect(entityRows == 18)
        #expect(checksumRows == 3)
    }

    /// momc's optimized model (`.omo`) of the current version holds every property hash (transient
    /// ones included) and every entity hash verbatim (16 property, 5 entity).
    @Test func optimizedModels() throws {
        var propertyRows = 0
        var entityRows = 0
        for item in Self.compiled {
            let momd = StoreCorpus.url(item.momd)
            let info = try CompiledModelInfo.read(momdAt: momd.path)
            let current = try #require(info.currentVersionName)
            let omo = try Data(contentsOf: momd.appendingPathComponent("\(current).omo"))
            let hashes = try #require(try Self.hashes(ofBundle: item.bundle)[current])
            var distinct: Set<Data> = []
            for (entity, properties) in hashes.properties {
                // A property inherited from a parent is the parent's: count it once.
                for (name, hash) in properties where distinct.insert(hash).inserted {
                    #expect(omo.range(of: hash) != nil, "\(current) \(entity).\(name)")
                    propertyRows += 1
                }
            }
            for (entity, hash) in hashes.entities {
                #expect(omo.range(of: hash) != nil, "\(current) \(entity)")
                entityRows += 1
            }
        }
        #expect(propertyRows == 16)
        #expect(entityRows == 5)
    }

    /// `V2toV3.cdm`: each entity mapping's source hash is `SampleModel2`'s, its destination hash `SampleModel3`'s.
    @Test func compiledMappingModel() throws {
        let data = try Data(contentsOf: StoreCorpus.url("\(Self.coreDataPlus)/SampleModel/Fixtures/V2toV3.cdm"))
        let mapping = try CompiledMappingModel.decode(data)
        let computed = try Self.hashes(ofBundle: "\(Self.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld")
        let source = try #require(computed["SampleModel2"])
        let destination = try #require(computed["SampleModel3"])
        var rows = 0
        for entityMapping in mapping.entityMappings {
            if let name = entityMapping.sourceEntity, let hash = entityMapping.sourceHash {
                #expect(source.entities[name] == hash, "source \(name)")
                rows += 1
            }
            if let name = entityMapping.destinationEntity, let hash = entityMapping.destinationHash {
                #expect(destination.entities[name] == hash, "destination \(name)")
                rows += 1
            }
        }
        #expect(rows == 9)
    }

    /// Every store's `Z_METADATA`: its hashes equal its version's (DuckDuckGo: its own entity
    /// only; the rest come from other models), and its digest and checksum, where recorded,
    /// equal both the values recomputed from its own hashes and its version's.
    @Test(arguments: StoreCorpus.cases)
    func store(_ item: StoreCorpus.Case) throws {
        let metadata = try StoreReader().read(storeAt: StoreCorpus.url(item.store).path, displayPath: item.description)
        let recorded = metadata.modelVersionHashes
        #expect(!recorded.isEmpty)
        if let digest = metadata.modelVersionHashesDigest { #expect(VersionHasher.digest(recorded) == digest) }
        if let checksum = metadata.modelVersionChecksum { #expect(VersionHasher.checksum(recorded) == checksum) }
        let computed = try Self.hashes(ofBundle: item.bundle)
        guard let expected = item.version else {
            // store1-24 names version 1.3, which is not in the bundle: no version may match.
            #expect(!computed.values.contains { $0.entities == recorded }, "\(item)")
            return
        }
        let version = try #require(computed[expected], "\(item) → \(expected)")
        if item.description == "Database.sqlite" {
            // DuckDuckGo's merged model: one entity is from this bundle.
            let shared = Set(recorded.keys).intersection(version.entities.keys)
            #expect(shared.count == 1)
            for name in shared { #expect(version.entities[name] == recorded[name], "\(name)") }
            return
        }
        #expect(version.entities == recorded, "\(item): \(Self.differences(version.entities, recorded))")
        if let digest = metadata.modelVersionHashesDigest { #expect(version.digest == digest) }
        if let checksum = metadata.modelVersionChecksum { #expect(version.checksum == checksum) }
    }

    static func differences(_ a: [String: Data], _ b: [String: Data]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    /// The stores record 6 digests and 2 checksums (§1.9 counts 11 and 3: each also checked
    /// against the version's XML where the version is in a bundle).
    @Test func storeDigestAndChecksumCounts() throws {
        var digests = 0
        var checksums = 0
        for item in StoreCorpus.cases {
            let metadata = try StoreReader().read(storeAt: StoreCorpus.url(item.store).path, displayPath: item.description)
            if metadata.modelVersionHashesDigest != nil { digests += 1 }
            if metadata.modelVersionChecksum != nil { checksums += 1 }
        }
        #expect(digests == 6)
        #expect(checksums == 2)
    }

    /// Every `xcmapping.xml` records the mapping editor's own store metadata: its digest and
    /// checksum equal the values recomputed from its own entity hashes (23 digests, 5 checksums).
    @Test func mappingEditorMetadata() throws {
        let files = Self.files(named: "xcmapping.xml")
        #expect(files.count == 30)
        var digests = 0
        var checksums = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard let start = text.range(of: "<plist"), let end = text.range(of: "</plist>") else {
                Issue.record("\(file.path) has no metadata plist")
                continue
            }
            let plistText = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text[start.lowerBound..<end.upperBound]
            let plist = try PropertyListSerialization.propertyList(from: Data(plistText.utf8), format: nil)
            let metadata = try #require(plist as? [String: Any])
            let hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data], "\(file.path)")
            if let digest = metadata["NSStoreModelVersionHashesDigest"] as? String {
                #expect(VersionHasher.digest(hashes) == digest, "\(file.path)")
                digests += 1
            }
            if let checksum = metadata["NSStoreModelVersionChecksumKey"] as? String {
                #expect(VersionHasher.checksum(hashes) == checksum, "\(file.path)")
                checksums += 1
            }
        }
        #expect(digests == 23)
        #expect(checksums == 5)
    }

    /// WooCommerce's tests: no two of its 117 versions are store-compatible.
    @Test func wooCommerceVersionsAreDistinct() throws {
        let computed = try Self.hashes(ofBundle: "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld")
        #expect(computed.count == 117)
        #expect(Set(computed.values.map(\.entities)).count == 117)
    }

    static func files(named name: String) -> [URL] {
        let corpus = SharedCorpus.corpus
        guard let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where url.lastPathComponent == name { found.append(url) }
        return found.sorted { $0.path < $1.path }
    }
}
}
