import Foundation
import ChainPlanTestSupport
import GRDB
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

@Suite struct StoreFixtureWriterTests {
    struct RoundTrip: Sendable, CustomStringConvertible {
        var bundle: String
        var version: String
        var description: String { version }
    }

    static let roundTrips: [RoundTrip] = [
        RoundTrip(bundle: "\(StoreCorpus.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld", version: "SampleModel"),
        RoundTrip(bundle: "\(StoreCorpus.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld", version: "SampleModel3"),
        RoundTrip(bundle: "\(StoreCorpus.coreDataPlus)/SampleModel3/SampleModel3.xcdatamodeld", version: "SampleModel3_v2"),
        RoundTrip(bundle: StoreCorpus.wireBundle, version: "zmessaging2.39.0"),
        RoundTrip(bundle: StoreCorpus.wireBundle, version: "zmessaging2.101.0"),
        RoundTrip(bundle: "\(StoreCorpus.duckDuckGo)/DuckDuckGo/AppRatingPrompt.xcdatamodeld", version: "AppRatingPrompt 2"),
        RoundTrip(bundle: "\(StoreCorpus.surf)/SurfJournalModel.xcdatamodeld", version: "SurfJournalModel"),
    ]

    static let rows = 25

    @Test func refusesToReplaceAFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("existing.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
        var caught: FixtureWriteError?
        do {
            _ = try StoreFixtureWriter(rowsPerEntity: 1).write(model: ObjectModel(), versionName: "V", to: path)
        } catch {
            caught = error
        }
        #expect(caught?.message == "cannot write fixture '\(path)': it already exists")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep me".utf8))
    }

    @Test(arguments: [-1, StoreFixtureWriter.maxRowsPerEntity + 1])
    func rejectsRowCountsOutOfRange(_ rows: Int) throws {
        let folder = try TemporaryFolder()
        var caught: FixtureWriteError?
        do {
            _ = try StoreFixtureWriter(rowsPerEntity: rows).write(model: ObjectModel(), versionName: "V", to: folder.path("x.sqlite"))
        } catch {
            caught = error
        }
        #expect(caught?.message == "rows per entity must be between 0 and 100000000, not \(rows)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.sqlite")))
    }

    /// Zero rows: the schema and metadata only; hostile models (cycles, dangling references,
    /// duplicates) still give a valid file.
    @Test func emptyAndHostileModels() throws {
        let hostile = ObjectModel(entities: [
            Entity(name: "A", parentEntity: "B", attributes: [Attribute(name: "x", type: .integer64)]),
            Entity(name: "B", parentEntity: "A", attributes: [Attribute(name: "X", type: .string)]),
            Entity(name: "A", attributes: [Attribute(name: "dup", type: .string)]),
            Entity(name: "C", parentEntity: "Missing", isAbstract: true,
                   relationships: [Relationship(name: "to", destinationEntity: "Nowhere"),
                                   Relationship(name: "self", destinationEntity: "C", inverseName: "self", isToMany: true)]),
        ])
        let folder = try TemporaryFolder()
        for rows in [0, 3] {
            let path = folder.path("hostile\(rows).sqlite")
            let summary = try StoreFixtureWriter(rowsPerEntity: rows).write(model: hostile, versionName: "H", to: path)
            #expect(summary.totalEntityRows == rows * 2)
            let metadata = try StoreReader().read(storeAt: path, displayPath: "hostile.sqlite")
            // The A ↔ B parent cycle is broken at B, which becomes the root; the duplicate A is dropped.
            #expect(metadata.entities.map(\.name) == ["B", "A", "C"])
            #expect(metadata.entities.map(\.superNumber) == [0, 1, 0])
            #expect(metadata.table(named: "ZB")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT", "ZX1", "ZX"])
            #expect(metadata.table(named: "ZC")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT"])
            #expect(metadata.tables.filter { $0.kind == .join }.map(\.name) == ["Z_3SELF"])
            #expect(StoreFingerprint(model: hostile).similarity(to: StoreFingerprint(store: metadata)) == 1)
            // A model Core Data could not hash (a parent cycle) gets no hashes, never made-up ones.
            #expect(metadata.modelVersionHashes == [:])
            #expect(metadata.modelVersionChecksum == nil)
            #expect(metadata.modelVersionHashesDigest == nil)
        }
    }

    /// The metadata records the model's Core Data version hashes, checksum and digest, so the
    /// store is identified by hash (no identifier, two structurally identical versions told apart).
    @Test func recordsCoreDataVersionHashes() throws {
        let v1 = ObjectModel(entities: [Entity(name: "Note", attributes: [Attribute(name: "title", type: .string, isOptional: true)])])
        // Same tables and columns, but `title` is no longer optional: only the hash tells them apart.
        let v2 = ObjectModel(entities: [Entity(name: "Note", attributes: [Attribute(name: "title", type: .string)])])
        let hashes = try ModelHasher.hash(v2).get()
        #expect(try ModelHasher.hash(v1).get().entities != hashes.entities)
        let folder = try TemporaryFolder()
        let path = folder.path("v2.sqlite")
        _ = try StoreFixtureWriter(rowsPerEntity: 2).write(model: v2, versionName: "V2", to: path)
        let metadata = try StoreReader().read(storeAt: path, displayPath: "v2.sqlite")
        #expect(metadata.modelVersionHashes == hashes.entities)
        #expect(metadata.modelVersionHashes["Note"]?.count == 32)
        #expect(metadata.modelVersionChecksum == hashes.checksum)
        #expect(metadata.modelVersionHashesDigest == hashes.digest)
        #expect(metadata.modelVersionHashesVersion == 3)
        let versions = [ModelVersion(name: "V1", path: "V1.xcdatamodel", model: v1),
                        ModelVersion(name: "V2", path: "V2.xcdatamodel", model: v2)]
        let identified = StoreIdentifier.identify(metadata: metadata, versions: versions)
        #expect(identified.detectedVersion == "V2")
        #expect(identified.evidence == .hashes)
    }
}

@Suite struct BinaryPlistWriterTests {
    /// The writer's output reads back through PropertyListSerialization with every value intact.
    @Test func roundTripsThroughPropertyListSerialization() throws {
        let long = (0..<20).map { "item \($0)" }
        let value = BinaryPlistWriter.encode(.dictionary([
            ("ascii", .string("SQLite")),
            ("unicode", .string("Zürich ✓ 東京")),
            ("empty", .string("")),
            ("long", .array(long.map { .string($0) })),
            ("longString", .string(String(repeating: "x", count: 300))),
            ("small", .integer(3)),
            ("medium", .integer(65_000)),
            ("large", .integer(5_000_000_000)),
            ("negative", .integer(-7)),
            ("data", .data(Data([0, 1, 2, 255]))),
            ("nested", .dictionary([("inner", .array([.integer(1), .string("two")]))])),
        ]))
        #expect(value.prefix(8) == Data("bplist00".utf8))
        let object = try PropertyListSerialization.propertyList(from: value, options: [], format: nil)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["ascii"] as? String == "SQLite")
        #expect(dictionary["unicode"] as? String == "Zürich ✓ 東京")
        #expect(dictionary["empty"] as? String == "")
        #expect(dictionary["long"] as? [String] == long)
        #expect(dictionary["longString"] as? String == String(repeating: "x", count: 300))
        #expect(MetadataPlist.integer(dictionary["small"]) == 3)
        #expect(MetadataPlist.integer(dictionary["medium"]) == 65_000)
        #expect(MetadataPlist.integer(dictionary["large"]) == 5_000_000_000)
        #expect(MetadataPlist.integer(dictionary["negative"]) == -7)
        #expect(dictionary["data"] as? Data == Data([0, 1, 2, 255]))
        let nested = try #require(dictionary["nested"] as? [String: Any])
        #expect((nested["inner"] as? [Any])?.count == 2)
        #expect(dictionary.count == 11)
    }
}

extension CorpusTests {
    /// The tests of `StoreFixtureWriterTests` that read `../shared`.
    @Suite struct StoreFixtureWriterCorpusTests {
        /// Write N rows for a corpus version, read it back: counts per entity are N, the
        /// structure is exactly the version's, and identification picks the version.
        @Test(arguments: StoreFixtureWriterTests.roundTrips)
        func roundTrip(_ item: StoreFixtureWriterTests.RoundTrip) throws {
            let versions = try StoreCorpus.versions(item.bundle)
            let model = try #require(versions.first { $0.name == item.version }?.model)
            let folder = try TemporaryFolder()
            let path = folder.path("fixture.sqlite")
            let summary = try StoreFixtureWriter(rowsPerEntity: StoreFixtureWriterTests.rows).write(model: model, versionName: item.version, to: path)

            let concrete = model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
            #expect(summary.rowsPerEntity.keys.sorted() == concrete)
            #expect(summary.rowsPerEntity.values.allSatisfy { $0 == StoreFixtureWriterTests.rows })
            #expect(summary.totalEntityRows == StoreFixtureWriterTests.rows * concrete.count)
            #expect(summary.bytes > 0)

            let metadata = try StoreReader().read(storeAt: path, displayPath: "fixture.sqlite")
            #expect(metadata.diagnostics == [])
            #expect(metadata.storeType == "SQLite")
            #expect(metadata.modelVersionIdentifiers == [model.versionIdentifier ?? ""])
            let hashes = try ModelHasher.hash(model).get()
            #expect(metadata.modelVersionHashes == hashes.entities)
            #expect(metadata.modelVersionChecksum == hashes.checksum)
            #expect(metadata.modelVersionHashesDigest == hashes.digest)
            #expect(metadata.otherMetadataKeys == ["ChainPlanFixtureVersion", "_NSAutoVacuumLevel"])
            #expect(!metadata.isWALMode)
            #expect(metadata.entities.map(\.name).sorted() == model.entities.map(\.name).sorted())
            for entity in model.entities {
                #expect(metadata.entity(named: entity.name)?.rowCount == (entity.isAbstract ? 0 : StoreFixtureWriterTests.rows), "\(entity.name)")
            }
            let layout = StoreLayout(model: model)
            for slot in layout.entities where slot.superNumber == 0 {
                let concreteInHierarchy = layout.entities.filter { $0.rootName == slot.name && !$0.isAbstract }.count
                #expect(metadata.entity(named: slot.name)?.maxPrimaryKey == StoreFixtureWriterTests.rows * concreteInHierarchy)
            }
            for join in layout.joinTables {
                #expect(metadata.table(named: join.name)?.kind == .join)
                #expect(metadata.table(named: join.name)?.rowCount == 2 * StoreFixtureWriterTests.rows)
                #expect(summary.joinRows[join.name] == 2 * StoreFixtureWriterTests.rows)
            }

            #expect(StoreFingerprint(model: model).similarity(to: StoreFingerprint(store: metadata)) == 1)
            let result = StoreIdentifier.identify(metadata: metadata, versions: versions)
            #expect(result.detectedVersion == item.version)
            #expect(result.evidence == .hashes)

            // Structure alone: the version is an exact match (the only one unless it has a twin).
            var anonymous = metadata.withoutHashes
            anonymous.modelVersionIdentifiers = [""]
            let structural = StoreIdentifier.identify(metadata: anonymous, versions: versions)
            let exact = structural.candidates.filter { $0.score == 1 }.map(\.version)
            #expect(exact.contains(item.version))
            if exact.count == 1 {
                #expect(structural.detectedVersion == item.version)
                #expect(structural.evidence == .structure)
            } else {
                #expect(structural.diagnostics.map(\.code) == [.ambiguousStoreVersion])
            }

            let queue = try DatabaseQueue(path: path)
            try queue.read { db in
                #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
                // Every foreign key points at an existing row of the right entity.
                for table in layout.tables {
                    for column in table.columns {
                        guard case .toOne(_, _, let destination) = column.role,
                              let destinationTable = layout.tables.first(where: { $0.entities.contains(destination) })?.name
                        else { continue }
                        let dangling = try Int.fetchOne(db, sql: """
                            SELECT COUNT(*) FROM "\(table.name)" t WHERE t."\(column.name)" IS NOT NULL
                            AND NOT EXISTS (SELECT 1 FROM "\(destinationTable)" d WHERE d.Z_PK = t."\(column.name)")
                            """)
                        #expect(dangling == 0, "\(table.name).\(column.name)")
                    }
                }
            }
            try queue.close()
        }

        /// Values are plausible and respect the model: non-optional attributes are never NULL,
        /// uniqueness constraints hold, keys and entity numbers are consistent.
        @Test func sampleModelValues() throws {
            let versions = try StoreCorpus.versions("\(StoreCorpus.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld")
            let model = try #require(versions.first { $0.name == "SampleModel" }?.model)
            let folder = try TemporaryFolder()
            let path = folder.path("values.sqlite")
            _ = try StoreFixtureWriter(rowsPerEntity: 100).write(model: model, versionName: "SampleModel", to: path)
            let queue = try DatabaseQueue(path: path)
            try queue.read { db in
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR") == 300)
                #expect(try Int.fetchAll(db, sql: "SELECT Z_ENT FROM ZCAR GROUP BY Z_ENT ORDER BY Z_ENT") == [1, 2, 3])
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE ZNUMBERPLATE IS NULL") == 0)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT ZNUMBERPLATE) FROM ZCAR") == 300)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPERSON WHERE length(ZID) = 16") == 100)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPERSON WHERE ZUPDATEDAT IS NULL") == 0)
                // Optional attributes: NULL on every tenth row.
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE ZMAKER IS NULL") == 30)
                // Only ExpensiveSportCar rows have isLimitedEdition.
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE ZISLIMITEDEDITION IS NOT NULL AND Z_ENT != 3") == 0)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR WHERE ZCOLOR IS NOT NULL") == 0)
                #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                    == ["ZCAR_ZOWNER_INDEX", "ZCAR_Z_ENT_INDEX", "Z_Car_UNIQUE_numberPlate", "Z_Person_UNIQUE_firstName_lastName"])
                #expect(try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                    == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
                #expect(try Int.fetchAll(db, sql: "SELECT Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [0, 1, 2, 0])
                let dates = try Double.fetchAll(db, sql: "SELECT ZUPDATEDAT FROM ZPERSON")
                #expect(dates.allSatisfy { $0 >= 600_000_000 && $0 < 726_000_000 })
            }
            try queue.close()
        }

        /// The layout reproduces the real store's table and column names for a version that
        /// wrote a corpus store (Wire 2.39.0: polymorphic keys, ordered keys, join tables).
        @Test func layoutMatchesRealWireSchema() throws {
            let versions = try StoreCorpus.versions(StoreCorpus.wireBundle)
            let model = try #require(versions.first { $0.name == "zmessaging2.39.0" }?.model)
            let layout = StoreLayout(model: model)
            let metadata = try StoreReader().read(
                storeAt: StoreCorpus.url("\(StoreCorpus.wire)/Tests/Resources/store2-39-0.wiredatabase").path)
            #expect(layout.entities.map(\.name) == metadata.entities.map(\.name))
            #expect(layout.entities.map(\.superNumber) == metadata.entities.map(\.superNumber))
            let real = metadata.tables.filter { $0.kind == .entity || $0.kind == .join }
            #expect(Set(layout.tables.map(\.name) + layout.joinTables.map(\.name)) == Set(real.map(\.name)))
            let reaction = try #require(layout.tables.first { $0.name == "ZREACTION" })
            #expect(reaction.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZMESSAGE", "Z6_MESSAGE", "ZUNICODEVALUE", "ZMODIFIEDKEYS"])
            #expect(metadata.table(named: "ZREACTION")?.columnNames == reaction.columns.map(\.name))
            let participants = try #require(layout.joinTables.first { $0.name == "Z_3OTHERACTIVEPARTICIPANTS" })
            #expect([participants.first.column, participants.second.column, participants.first.orderColumn, participants.second.orderColumn]
                == ["Z_3ACTIVECONVERSATIONS", "Z_17OTHERACTIVEPARTICIPANTS", "Z_FOK_3ACTIVECONVERSATIONS", "Z_FOK_17OTHERACTIVEPARTICIPANTS"])
            let ignored = try #require(layout.joinTables.first { $0.name == "Z_18IGNOREDCLIENTS" })
            #expect([ignored.first.column, ignored.second.column] == ["Z_18IGNOREDBYCLIENTS", "Z_18IGNOREDCLIENTS"])
            let message = try #require(layout.tables.first { $0.name == "ZMESSAGE" })
            #expect(message.columns.map(\.name).contains("Z_FOK_VISIBLEINCONVERSATION"))
            #expect(message.columns.map(\.name).contains("ZDELIVERED1"))
        }

        /// Same model, seed and count: the same bytes. Another seed: other bytes.
        @Test func deterministic() throws {
            let versions = try StoreCorpus.versions("\(StoreCorpus.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld")
            let model = try #require(versions.first { $0.name == "SampleModel3" }?.model)
            let folder = try TemporaryFolder()
            for name in ["a", "b"] {
                _ = try StoreFixtureWriter(rowsPerEntity: 200, seed: 1).write(model: model, versionName: "SampleModel3", to: folder.path(name))
            }
            _ = try StoreFixtureWriter(rowsPerEntity: 200, seed: 2).write(model: model, versionName: "SampleModel3", to: folder.path("c"))
            #expect(try FileSnapshot.sha256(folder.path("a")) == FileSnapshot.sha256(folder.path("b")))
            #expect(try FileSnapshot.sha256(folder.path("a")) != FileSnapshot.sha256(folder.path("c")))
        }
    }
}
