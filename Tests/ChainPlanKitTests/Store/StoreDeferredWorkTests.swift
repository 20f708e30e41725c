import Foundation
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

/// Deferred work a store already holds (reference §7.3): `_DEFERRED_` columns per table, a stale
/// metadata key, columns that do not match the store's version (CP305), and `dry-run --deferred`'s
/// simulated finish. Stores are written by the fixture writer (V1: Note with title and body; V2:
/// Note with title) and changed by SQL; times are never compared.
struct StoreDeferredWorkTests {
    static let token = "0123456789ABCDEF0123456789ABCDEF"
    static let pendingColumn = "_DEFERRED_\(token)__ZBODY"

    @Test(arguments: [
        ("_DEFERRED_0123456789ABCDEF0123456789ABCDEF__ZBODY", "ZBODY"),
        ("_deferred_0123456789abcdef0123456789abcdef__ZBODY", "ZBODY"),
        ("_DEFERRED_0123456789ABCDEF0123456789ABCDEF__Z_1TAGS", "Z_1TAGS"),
        ("_DEFERRED_oops", nil),
        ("_DEFERRED_0123456789ABCDEF0123456789ABCDEG__ZBODY", nil),
        ("_DEFERRED_0123456789ABCDEF0123456789ABCDEF_ZBODY", nil),
        ("_DEFERRED_0123456789ABCDEF0123456789ABCDEF__", nil),
        ("ZBODY", nil),
    ] as [(String, String?)])
    func originalColumn(_ name: String, _ original: String?) {
        #expect(PendingDeferredWork.originalColumn(of: name) == original)
    }

    /// A store at `version` written by the fixture writer, with the metadata key when `key`, then `sql`.
    static func store(_ spec: URL, _ version: String, key: Bool, sql: [String] = [], in folder: TemporaryFolder, name: String = "store") throws -> String {
        let path = folder.url.appendingPathComponent("\(version)-\(name).sqlite").path
        let bundle = try #require(DryRunTests.planner().bundle(inputAt: spec))
        let model = try #require(bundle.version(named: version)?.model)
        var writer = StoreFixtureWriter(rowsPerEntity: 5)
        writer.deferredMigrationKey = key
        _ = try writer.write(model: model, versionName: version, to: path)
        if !sql.isEmpty {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in for statement in sql { try db.execute(sql: statement) } }
            try queue.close()
        }
        return path
    }

    static func inspect(_ path: String, spec: URL) throws -> StoreInspection {
        let bundle = try #require(DryRunTests.planner().bundle(inputAt: spec))
        return StoreInspection.inspect(storeAt: path, displayPath: "store.sqlite", bundle: bundle)
    }

    static func dryRun(_ spec: URL, _ path: String, deferring: Bool, folder: TemporaryFolder, sql: SQLCollector? = nil) -> DryRunReport {
        var options = PlanOptions()
        options.baseDirectory = folder.url
        options.deferredLightweightMigration = deferring
        var dryRun = DryRunOptions()
        if let sql { dryRun.sqlLog = { sql.append($0) } }
        return ChainPlanner(options: options).dryRun(inputAt: spec, storeAt: path, options: dryRun)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var version: String
        var key: Bool
        var sql: [String]
        var finishTasks: Int
        var staleKey: Bool
        var mismatch: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "pending: ZNOTE holds the deferred ZBODY, key set", version: "V2", key: true,
             sql: [#"ALTER TABLE ZNOTE ADD COLUMN "\#(pendingColumn)" VARCHAR"#], finishTasks: 1, staleKey: false, mismatch: false),
        Case(name: "stale key: key set, no _DEFERRED_ column", version: "V2", key: true, sql: [], finishTasks: 0, staleKey: true, mismatch: false),
        Case(name: "nothing deferred", version: "V2", key: false, sql: [], finishTasks: 0, staleKey: false, mismatch: false),
        Case(name: "a _DEFERRED_ name without Core Data's shape", version: "V2", key: true,
             sql: [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_oops" VARCHAR"#], finishTasks: 1, staleKey: false, mismatch: true),
    ]

    @Test(arguments: cases)
    func inspectStore(_ c: Case) throws {
        let folder = try TemporaryFolder()
        let spec = try DeferredDryRunTests.chain(in: folder)
        let path = try Self.store(spec, c.version, key: c.key, sql: c.sql, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let inspection = try Self.inspect(path, spec: spec)
        #expect(inspection.detectedVersion == c.version)
        let deferred = try #require(inspection.deferred)
        #expect(deferred.finishTasks == c.finishTasks)
        #expect(deferred.staleKey == c.staleKey)
        #expect(deferred.metadataKey == c.key)
        #expect(inspection.diagnostics.contains { $0.code == .deferredColumnsMismatch } == c.mismatch, "\(inspection.diagnostics)")
        #expect(inspection.diagnostics.hasUnusableInput == c.mismatch)
        // dry-run reports the same, and a mismatch is unusable input (nothing simulated).
        let report = Self.dryRun(spec, path, deferring: false, folder: folder)
        #expect(report.store?.pendingDeferred == (deferred.isEmpty ? nil : deferred))
        #expect(report.plan.diagnostics.hasUnusableInput == c.mismatch)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the user's store is never modified")
    }

    @Test func pendingWorkText() throws {
        let folder = try TemporaryFolder()
        let spec = try DeferredDryRunTests.chain(in: folder)
        let pending = try Self.store(spec, "V2", key: true, sql: [#"ALTER TABLE ZNOTE ADD COLUMN "\#(Self.pendingColumn)" VARCHAR"#], in: folder)
        #expect(try Self.inspect(pending, spec: spec).text() == """
            Store store.sqlite: version 'V2' by hashes
            deferred work: 1 finish task (ZNOTE: ZBODY)
              ZNOTE (5 rows): \(Self.pendingColumn) (was ZBODY)

            """)
        let stale = try Self.store(spec, "V2", key: true, in: folder, name: "stale")
        #expect(try Self.inspect(stale, spec: spec).text().contains("stale key"))
    }

    /// A column the store's model still reads, renamed away: the store is not at that version.
    @Test func columnTheModelReads() throws {
        let folder = try TemporaryFolder()
        let spec = try DeferredDryRunTests.chain(in: folder)
        let path = try Self.store(spec, "V1", key: true, sql: [#"ALTER TABLE ZNOTE RENAME COLUMN ZBODY TO "\#(Self.pendingColumn)""#], in: folder)
        let metadata = try StoreReader().read(storeAt: path, displayPath: "store.sqlite")
        let bundle = try #require(DryRunTests.planner().bundle(inputAt: spec))
        let pending = StoreDeferredWork.pending(in: metadata)
        let v1 = try #require(bundle.version(named: "V1")?.model)
        let v2 = try #require(bundle.version(named: "V2")?.model)
        #expect(StoreDeferredWork.mismatches(pending, metadata: metadata, model: v1, version: "V1", displayPath: "store.sqlite").map(\.code) == [.deferredColumnsMismatch])
        #expect(StoreDeferredWork.mismatches(pending, metadata: metadata, model: v2, version: "V2", displayPath: "store.sqlite").isEmpty)
        // Deferred columns in a table of no entity: finishing never reaches them.
        let gone = try Self.store(spec, "V2", key: true, sql: [#"CREATE TABLE ZGONE (Z_PK INTEGER PRIMARY KEY, "_DEFERRED_\#(Self.token)__ZNAME" VARCHAR)"#],
                                  in: folder, name: "gone")
        let goneMetadata = try StoreReader().read(storeAt: gone, displayPath: "store.sqlite")
        let found = StoreDeferredWork.mismatches(StoreDeferredWork.pending(in: goneMetadata), metadata: goneMetadata, model: v2, version: "V2", displayPath: "store.sqlite")
        #expect(found.map(\.code) == [.deferredColumnsMismatch])
        #expect(found.first?.message.contains("ZGONE") == true)
    }

    /// `dry-run --deferred`: the renames, then the finish on the same copy (one task, a full copy
    /// of ZNOTE), next to the same step without the option (a rebuild copying the rows).
    @Test func simulatedFinish() throws {
        let folder = try TemporaryFolder()
        let spec = try DeferredDryRunTests.chain(in: folder)
        let path = try Self.store(spec, "V1", key: false, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let sql = SQLCollector()
        let report = Self.dryRun(spec, path, deferring: true, folder: folder, sql: sql)
        let finish = try #require(report.store?.deferredFinish)
        #expect(finish.failure == nil)
        #expect(finish.steps.map { "\($0.from)→\($0.to)" } == ["V1→V2"])
        #expect(finish.steps.first?.deferredRowsCopied == 0)
        #expect(finish.steps.first?.withoutDeferralRowsCopied == 5)
        #expect(finish.tasks.map(\.table) == ["ZNOTE"])
        #expect(finish.tasks.first?.rows == 5)
        #expect(finish.tasks.first?.columns.count == 1)
        #expect(finish.tasks.first?.columns.first?.hasSuffix("__ZBODY") == true)
        #expect(finish.leftOver.isEmpty)
        #expect(sql.lines.contains(#"ALTER TABLE "ZNOTE" RENAME TO "_DEFERRED_TEMP__ZNOTE";"#))
        #expect(sql.lines.contains(#"DROP TABLE "_DEFERRED_TEMP__ZNOTE";"#))
        let text = String(decoding: Reporters.render(report, as: .text), as: UTF8.self)
        #expect(text.contains("V1 → V2 with the option: 0 rows copied in "))
        #expect(text.contains("; without: 5 rows copied in "))
        #expect(text.contains("finish (simulated): ZNOTE 5 rows copied in "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the user's store is never modified")
        // Without the option: no finish simulation, and the JSON has no key for it.
        let plain = Self.dryRun(spec, path, deferring: false, folder: folder)
        #expect(plain.store?.deferredFinish == nil)
        let json = String(decoding: try JSONEncoder().encode(try #require(plain.store)), as: UTF8.self)
        #expect(!json.contains("deferredFinish") && !json.contains("pendingDeferred"))
    }

    /// Work a store already holds is finished too, even when the path has no step.
    @Test func finishesPendingWorkOfATargetStore() throws {
        let folder = try TemporaryFolder()
        let spec = try DeferredDryRunTests.chain(in: folder)
        let path = try Self.store(spec, "V2", key: true, sql: [#"ALTER TABLE ZNOTE ADD COLUMN "\#(Self.pendingColumn)" VARCHAR"#], in: folder)
        let report = Self.dryRun(spec, path, deferring: true, folder: folder)
        let finish = try #require(report.store?.deferredFinish)
        #expect(finish.steps.isEmpty)
        #expect(finish.tasks.map(\.table) == ["ZNOTE"])
        #expect(finish.tasks.first?.columns == [Self.pendingColumn])
    }
}
