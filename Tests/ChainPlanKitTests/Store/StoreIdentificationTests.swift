import Foundation
import ChainPlanTestSupport
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

@Suite struct StoreIdentificationTests {
    static func read(_ item: StoreCorpus.Case) throws -> StoreMetadata {
        try StoreReader().read(storeAt: StoreCorpus.url(item.store).path, displayPath: item.description)
    }

    /// Two versions with the same structure and an empty identifier: CP302, nothing detected.
    @Test func ambiguousStructure() throws {
        let model = ObjectModel(entities: [Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)])])
        let folder = try TemporaryFolder()
        _ = try StoreFixtureWriter(rowsPerEntity: 3).write(model: model, versionName: "A", to: folder.path("a.sqlite"))
        let metadata = try StoreReader().read(storeAt: folder.path("a.sqlite"), displayPath: "a.sqlite")
        let versions = [ModelVersion(name: "A", path: "A", model: model), ModelVersion(name: "B", path: "B", model: model)]
        let result = StoreIdentifier.identify(metadata: metadata, versions: versions)
        #expect(result.detectedVersion == nil)
        #expect(result.diagnostics.map(\.code) == [.ambiguousStoreVersion])
        #expect(result.diagnostics.first?.versions == ["A", "B"])
        #expect(result.candidates == [VersionCandidate(version: "A", score: 1), VersionCandidate(version: "B", score: 1)])
    }

    /// Narrowing decides between structural twins: A and C share a layout, but only A and B
    /// carry the store's identifier `x`.
    @Test func sharedIdentifierBreaksAStructuralTie() throws {
        let item = Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)])
        let other = Entity(name: "Item", attributes: [Attribute(name: "name", type: .string)])
        let a = ObjectModel(entities: [item], versionIdentifier: "x")
        let b = ObjectModel(entities: [other], versionIdentifier: "x")
        let c = ObjectModel(entities: [item])
        let folder = try TemporaryFolder()
        _ = try StoreFixtureWriter(rowsPerEntity: 1).write(model: a, versionName: "A", to: folder.path("a.sqlite"))
        // Without hashes (a store written before them): identifiers and structure decide.
        let metadata = try StoreReader().read(storeAt: folder.path("a.sqlite"), displayPath: "a.sqlite").withoutHashes
        let versions = [ModelVersion(name: "A", path: "A", model: a), ModelVersion(name: "B", path: "B", model: b),
                        ModelVersion(name: "C", path: "C", model: c)]
        let narrowed = StoreIdentifier.identify(metadata: metadata, versions: versions)
        #expect(narrowed.detectedVersion == "A")
        #expect(narrowed.evidence == .structure)
        #expect(narrowed.diagnostics == [])

        var anonymous = metadata
        anonymous.modelVersionIdentifiers = [""]
        let tied = StoreIdentifier.identify(metadata: anonymous, versions: versions)
        #expect(tied.detectedVersion == nil)
        #expect(tied.diagnostics.map(\.code) == [.ambiguousStoreVersion])
        #expect(tied.diagnostics.first?.versions == ["A", "C"])
    }

    /// Identifiers that point at the wrong versions do not hide an exact structural match;
    /// identifiers of two versions (a merged model) are settled by structure.
    @Test func identifiersAndStructureDisagree() throws {
        let item = Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)])
        let other = Entity(name: "Item", attributes: [Attribute(name: "name", type: .string)])
        let third = Entity(name: "Item", attributes: [Attribute(name: "size", type: .integer32)])
        let a = ObjectModel(entities: [item], versionIdentifier: "x")
        let b = ObjectModel(entities: [other], versionIdentifier: "x")
        let c = ObjectModel(entities: [third], versionIdentifier: "y")
        let versions = [ModelVersion(name: "A", path: "A", model: a), ModelVersion(name: "B", path: "B", model: b),
                        ModelVersion(name: "C", path: "C", model: c)]
        let folder = try TemporaryFolder()
        _ = try StoreFixtureWriter(rowsPerEntity: 1).write(model: c, versionName: "C", to: folder.path("c.sqlite"))
        var metadata = try StoreReader().read(storeAt: folder.path("c.sqlite"), displayPath: "c.sqlite").withoutHashes

        metadata.modelVersionIdentifiers = ["x"]
        let wrong = StoreIdentifier.identify(metadata: metadata, versions: versions)
        #expect(wrong.detectedVersion == "C")
        #expect(wrong.evidence == .structure)
        #expect(wrong.diagnostics.map(\.message)
            == ["store 'c.sqlite' names the model version identifier of 'A', 'B', but its structure matches 'C'"])

        // Unique identifiers of two versions: structure picks the one that matches.
        let unique = [ModelVersion(name: "B", path: "B", model: ObjectModel(entities: [other], versionIdentifier: "z")),
                      ModelVersion(name: "C", path: "C", model: c)]
        metadata.modelVersionIdentifiers = ["", "z", "y"]
        let merged = StoreIdentifier.identify(metadata: metadata, versions: unique)
        #expect(merged.detectedVersion == "C")
        #expect(merged.evidence == .structure)
        #expect(merged.diagnostics == [])

        // Neither matches: CP302 on the identifiers, nothing detected.
        let neither = [ModelVersion(name: "B", path: "B", model: ObjectModel(entities: [other], versionIdentifier: "z")),
                       ModelVersion(name: "A", path: "A", model: ObjectModel(entities: [item], versionIdentifier: "y"))]
        let ambiguous = StoreIdentifier.identify(metadata: metadata, versions: neither)
        #expect(ambiguous.detectedVersion == nil)
        #expect(ambiguous.diagnostics.map(\.code) == [.ambiguousStoreVersion])
        #expect(ambiguous.diagnostics.first?.versions == ["B", "A"])
    }
}

@Suite struct CompiledModelInfoTests {

    struct BadPlist: Sendable, CustomStringConvertible {
        var name: String
        var content: String?
        var message: String
        var description: String { name }
    }

    static let badPlists: [BadPlist] = [
        BadPlist(name: "missing", content: nil, message: "compiled model 'X.momd/VersionInfo.plist' does not exist"),
        BadPlist(name: "not a plist", content: "hello", message: "compiled model 'X.momd/VersionInfo.plist' is not a property list dictionary"),
        BadPlist(name: "entities", content: """
            <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "x">]><plist version="1.0"><dict><key>a</key><string>&a;</string></dict></plist>
            """, message: "compiled model 'X.momd/VersionInfo.plist' declares XML entities, which chainplan refuses to expand"),
        BadPlist(name: "no hashes", content: """
            <?xml version="1.0"?><plist version="1.0"><dict><key>NSManagedObjectModel_CurrentVersionName</key><string>A</string></dict></plist>
            """, message: "compiled model 'X.momd/VersionInfo.plist' has no NSManagedObjectModel_VersionHashes dictionary"),
        BadPlist(name: "hash not data", content: """
            <?xml version="1.0"?><plist version="1.0"><dict><key>NSManagedObjectModel_VersionHashes</key><dict><key>A</key><dict><key>E</key><string>x</string></dict></dict></dict></plist>
            """, message: "compiled model 'X.momd/VersionInfo.plist' has a hash for entity 'E' of version 'A' that is not data"),
    ]

    @Test(arguments: badPlists)
    func unreadable(_ item: BadPlist) throws {
        let folder = try TemporaryFolder()
        let momd = folder.url.appendingPathComponent("X.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        if let content = item.content {
            try Data(content.utf8).write(to: momd.appendingPathComponent("VersionInfo.plist"))
        }
        var caught: StoreError?
        do {
            _ = try CompiledModelInfo.read(momdAt: momd.path, displayPath: "X.momd")
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.diagnostic.code == .unreadableModelBundle)
        #expect(error.diagnostic.message == item.message)
    }
}

extension CorpusTests {
    /// The tests of `StoreIdentificationTests` that read `../shared`.
    @Suite struct StoreIdentificationCorpusTests {
        /// Every corpus store is identified as the version that wrote it, by the best evidence available.
        @Test(arguments: StoreCorpus.cases)
        func corpusStore(_ item: StoreCorpus.Case) throws {
            let metadata = try StoreIdentificationTests.read(item)
            let versions = try StoreCorpus.versions(item.bundle)
            let compiled = try item.momd.map { try CompiledModelInfo.read(momdAt: StoreCorpus.url($0).path) }
            let result = StoreIdentifier.identify(metadata: metadata, versions: versions, compiled: compiled)
            #expect(result.detectedVersion == item.version)
            #expect(result.evidence == item.evidence)
            #expect(result.candidates.count == versions.count)
            #expect(!result.diagnostics.contains { $0.severity == .error } == (item.version != nil))
        }

        /// store1-24 names identifier 1.3, which the bundle lacks: unknown, with the reason.
        @Test func wireStoreOfAVersionMissingFromTheBundle() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "store1-24.wiredatabase" })
            let metadata = try StoreIdentificationTests.read(item)
            #expect(metadata.modelVersionIdentifiers == ["1.3"])
            let result = StoreIdentifier.identify(metadata: metadata, versions: try StoreCorpus.versions(item.bundle))
            #expect(result.detectedVersion == nil)
            #expect(result.evidence == nil)
            let diagnostic = try #require(result.diagnostics.first)
            #expect(result.diagnostics.count == 1)
            #expect(diagnostic.code == .unknownStoreVersion)
            #expect(diagnostic.severity == .error)
            #expect(diagnostic.location == SourceLocation(file: "store1-24.wiredatabase"))
            #expect(diagnostic.versions == ["zmessaging"])
            // Decided by the hashes it records (Core Data's rule), not by structure.
            #expect(diagnostic.message ==
                "no model version matches store 'store1-24.wiredatabase': its entity hashes equal no version's; nearest is 'zmessaging' (3 of 10 entities equal); it names model version identifier '1.3', which no version in the bundle has")
            #expect(result.closestDifferences?.missingEntities == ["AssetClientMessage", "ClientMessage", "GenericMessageData", "UserClient"])
            #expect(result.closestDifferences?.extraEntities == [])
            #expect(result.closestDifferences?.extraColumns.contains("ZMESSAGE.ZKNOCKTYPE") == true)
        }

        /// store2-40-0 is a copy of store2-39-0: its hashes are 2.39.0's, and so is its structure.
        @Test func wireStore2_40IsReally2_39() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "store2-40-0.wiredatabase" })
            let metadata = try StoreIdentificationTests.read(item)
            #expect(metadata.modelVersionIdentifiers == ["2.39.0"])
            let result = StoreIdentifier.identify(metadata: metadata, versions: try StoreCorpus.versions(item.bundle))
            #expect(result.detectedVersion == "zmessaging2.39.0")
            #expect(result.evidence == .hashes)
            #expect(result.candidates.first == VersionCandidate(version: "zmessaging2.39.0", score: 1))
            #expect(result.candidates.filter { $0.score == 1 }.map(\.version) == ["zmessaging2.39.0"])
        }

        /// Without hashes and identifiers, structure alone still points at the right version for
        /// every store: it is an exact (1.0) match, and the only one unless versions share a layout.
        @Test(arguments: StoreCorpus.cases.filter { $0.version != nil })
        func structureAloneAgrees(_ item: StoreCorpus.Case) throws {
            var metadata = try StoreIdentificationTests.read(item)
            metadata.modelVersionIdentifiers = [""]
            metadata.modelVersionHashes = [:]
            let versions = try StoreCorpus.versions(item.bundle)
            let result = StoreIdentifier.identify(metadata: metadata, versions: versions)
            let exact = result.candidates.filter { $0.score == 1 }.map(\.version)
            let expected = try #require(item.version)
            #expect(exact.contains(expected))
            if exact.count == 1 {
                #expect(result.detectedVersion == expected)
                #expect(result.evidence == .structure)
            } else {
                #expect(result.detectedVersion == nil)
                #expect(result.diagnostics.map(\.code) == [.ambiguousStoreVersion])
                #expect(Set(result.diagnostics.first?.versions ?? []) == Set(exact))
            }
        }

        /// Wire versions whose hashes are identical to a neighbour's (one version to Core Data):
        /// identifiers decide for the real store; without them, CP302 with both.
        @Test func structuralTwinsNeedIdentifiers() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "store2-100-0.wiredatabase" })
            var metadata = try StoreIdentificationTests.read(item)
            metadata.modelVersionIdentifiers = [""]
            let result = StoreIdentifier.identify(metadata: metadata, versions: try StoreCorpus.versions(item.bundle))
            #expect(result.detectedVersion == nil)
            #expect(result.evidence == nil)
            #expect(result.diagnostics.count == 1)
            #expect(result.diagnostics.first?.code == .ambiguousStoreVersion)
            #expect(result.diagnostics.first?.severity == .warning)
            #expect(result.diagnostics.first?.versions == ["zmessaging2.98.0", "zmessaging2.100.0"])
            #expect(result.diagnostics.first?.message
                == "store 'store2-100-0.wiredatabase' has the entity hashes of several model versions: 'zmessaging2.98.0', 'zmessaging2.100.0' (identical hashes: one version to Core Data)")
        }

        /// CoreDataPlus without the compiled model: the hashes computed from the bundle decide.
        @Test(arguments: [("SampleModel_V1.sqlite", "SampleModel"), ("SampleModel_V2.sqlite", "SampleModel2")])
        func hashesWithoutCompiledModel(_ name: String, _ version: String) throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == name })
            let result = StoreIdentifier.identify(metadata: try StoreIdentificationTests.read(item), versions: try StoreCorpus.versions(item.bundle))
            #expect(result.detectedVersion == version)
            #expect(result.evidence == .hashes)
            #expect(result.diagnostics == [])
        }

        /// A compiled model from another bundle: no hash matches (a note); the hashes computed
        /// from the bundle decide.
        @Test func foreignCompiledModel() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "SampleModel_V1.sqlite" })
            let compiled = try CompiledModelInfo.read(
                momdAt: StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel3/Fixtures/SampleModel3.momd").path,
                displayPath: "SampleModel3.momd")
            let result = StoreIdentifier.identify(metadata: try StoreIdentificationTests.read(item), versions: try StoreCorpus.versions(item.bundle),
                                                  compiled: compiled)
            #expect(result.detectedVersion == "SampleModel")
            #expect(result.evidence == .hashes)
            #expect(result.diagnostics.map(\.code) == [.unknownStoreVersion])
            #expect(result.diagnostics.map(\.severity) == [.note])
            #expect(result.diagnostics.map(\.message)
                == ["store 'SampleModel_V1.sqlite' has entity hashes that match no version of compiled model 'SampleModel3.momd/VersionInfo.plist'"])
        }

        /// The V2 store still calls `LuxuryCar` by its old name `ExpensiveSportCar` in
        /// Z_PRIMARYKEY: the renaming identifier makes the structure match SampleModel2.
        @Test func renamedEntityKeepsItsOldNameInTheStore() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "SampleModel_V2.sqlite" })
            let metadata = try StoreIdentificationTests.read(item)
            #expect(metadata.entities.map(\.name) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
            let versions = try StoreCorpus.versions(item.bundle)
            let model = try #require(versions.first { $0.name == "SampleModel2" }?.model)
            let expected = StoreFingerprint(model: model)
            #expect(expected.entityAliases == ["ExpensiveSportCar": "LuxuryCar"])
            #expect(expected.similarity(to: StoreFingerprint(store: metadata)) == 1)
        }

        /// DuckDuckGo's store was written with a merged model (identifiers ['', '3']): it holds
        /// every entity hash of version 1 and 4 entities of other models.
        @Test func mergedModelStore() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "Database.sqlite" })
            let metadata = try StoreIdentificationTests.read(item)
            #expect(metadata.modelVersionIdentifiers == ["", "3"])
            #expect(metadata.entities.count == 5)
            let result = StoreIdentifier.identify(metadata: metadata, versions: try StoreCorpus.versions(item.bundle))
            #expect(result.detectedVersion == "AppRatingPrompt")
            #expect(result.evidence == .hashes)
            #expect(result.diagnostics.map(\.code) == [.unknownStoreVersion])
            #expect(result.diagnostics.map(\.severity) == [.note])
            #expect(result.diagnostics.first?.message
                == "store 'Database.sqlite' was written with a merged model: it holds every entity hash of 'AppRatingPrompt' and 4 entities of other models")
        }

        /// An identifier shared by several versions (Wire's 2.9, 2.10, 2.11 all say 2.15) only
        /// narrows the structural comparison.
        @Test func sharedIdentifierNarrowsTheStructuralComparison() throws {
            let versions = try StoreCorpus.versions(StoreCorpus.wireBundle)
            let sharing = versions.filter { $0.model?.versionIdentifier == "2.15" }.map(\.name)
            #expect(sharing == ["zmessaging2.9", "zmessaging2.10", "zmessaging2.11"])
            let target = try #require(versions.first { $0.name == "zmessaging2.10" }?.model)
            let folder = try TemporaryFolder()
            _ = try StoreFixtureWriter(rowsPerEntity: 2).write(model: target, versionName: "zmessaging2.10", to: folder.path("w.sqlite"))
            let recorded = try StoreReader().read(storeAt: folder.path("w.sqlite"), displayPath: "w.sqlite")
            #expect(StoreIdentifier.identify(metadata: recorded, versions: versions).evidence == .hashes)
            let metadata = recorded.withoutHashes
            #expect(metadata.modelVersionIdentifiers == ["2.15"])
            let result = StoreIdentifier.identify(metadata: metadata, versions: versions)
            #expect(result.candidates.filter { $0.score == 1 }.map(\.version) == ["zmessaging2.10"])
            #expect(result.detectedVersion == "zmessaging2.10")
            #expect(result.evidence == .structure)
            #expect(result.diagnostics == [])
        }

        /// No readable version at all.
        @Test func emptyBundle() throws {
            let item = try #require(StoreCorpus.cases.first { $0.description == "SampleModel3_V1.sqlite" })
            let result = StoreIdentifier.identify(metadata: try StoreIdentificationTests.read(item), versions: [])
            #expect(result.detectedVersion == nil)
            #expect(result.candidates == [])
            #expect(result.diagnostics.map(\.message)
                == ["no model version matches store 'SampleModel3_V1.sqlite': it names model version identifier '1', which no version in the bundle has; the bundle has no readable model version"
                    + "; plain Core Data can still migrate it from the model cached in the store's Z_MODELCACHE table, when the store has one; "
                    + "CoreStore cannot (it looks for the store's hashes in the bundle only)"])
        }

        @Test func sampleModel() throws {
            let info = try CompiledModelInfo.read(
                momdAt: StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel.momd").path)
            #expect(info.versionNames == ["SampleModel", "SampleModel2", "SampleModel3"])
            #expect(info.currentVersionName == "SampleModel")
            #expect(info.versionHashes["SampleModel"]?.keys.sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
            #expect(info.versionHashes["SampleModel3"]?.count == 5)
            #expect(info.versionHashes.values.allSatisfy { $0.values.allSatisfy { $0.count == 32 } })
            #expect(info.versionChecksums == [:])
        }

        @Test func sampleModel3WithChecksums() throws {
            let info = try CompiledModelInfo.read(
                momdAt: StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel3/Fixtures/SampleModel3.momd/VersionInfo.plist").path)
            #expect(info.versionNames == ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
            #expect(info.versionChecksums["SampleModel3"] == "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
            // The store's checksum key equals its version's checksum.
            let item = try #require(StoreCorpus.cases.first { $0.description == "SampleModel3_V1.sqlite" })
            let metadata = try StoreReader().read(storeAt: StoreCorpus.url(item.store).path)
            #expect(info.versions(matchingChecksum: metadata.modelVersionChecksum ?? "") == ["SampleModel3"])
            #expect(info.versions(matchingHashes: metadata.modelVersionHashes) == ["SampleModel3"])
        }
    }
}
