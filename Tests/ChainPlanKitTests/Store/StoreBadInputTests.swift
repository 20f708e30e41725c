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
#if canImport(Glibc)
import Glibc
#endif

/// Hostile or broken inputs, generated into a temporary folder: each gives a CP300 error (thrown,
/// or for unreadable metadata recorded while the structure is still read), never a crash, and
/// nothing is modified.
@Suite struct StoreBadInputTests {
    struct BadCase: Sendable, CustomStringConvertible {
        var name: String
        /// Writes the input into the folder and returns the path to read.
        var make: @Sendable (TemporaryFolder) throws -> String
        var message: String
        var description: String { name }
    }

    static let wireStore = StoreCorpus.url("\(StoreCorpus.wire)/Tests/Resources/store2-39-0.wiredatabase")

    static let fatalCases: [BadCase] = [
        BadCase(name: "missing", make: { $0.path("missing.sqlite") },
                message: "store 'missing.sqlite' does not exist"),
        BadCase(name: "directory", make: { folder in
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("dir.sqlite"), withIntermediateDirectories: false)
            return folder.path("dir.sqlite")
        }, message: "store 'dir.sqlite' is a directory, not a SQLite store file"),
        BadCase(name: "fifo", make: { folder in
            mkfifo(folder.path("fifo.sqlite"), 0o644)
            return folder.path("fifo.sqlite")
        }, message: "store 'fifo.sqlite' is a FIFO, not a SQLite store file"),
        BadCase(name: "zero bytes", make: { folder in
            _ = FileManager.default.createFile(atPath: folder.path("empty.sqlite"), contents: Data())
            return folder.path("empty.sqlite")
        }, message: "store 'empty.sqlite' is empty (0 bytes), not a SQLite database"),
        BadCase(name: "random bytes", make: { folder in
            var random = SplitMix64(seed: 42)
            let bytes = (0..<65536).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = FileManager.default.createFile(atPath: folder.path("random.sqlite"), contents: Data(bytes))
            return folder.path("random.sqlite")
        }, message: "store 'random.sqlite' is not a SQLite database (no SQLite header: another format, encrypted or random bytes)"),
        BadCase(name: "text file", make: { folder in
            _ = FileManager.default.createFile(atPath: folder.path("notes.sqlite"), contents: Data("hello\n".utf8))
            return folder.path("notes.sqlite")
        }, message: "store 'notes.sqlite' is not a SQLite database (no SQLite header: another format, encrypted or random bytes)"),
        BadCase(name: "truncated header", make: { folder in
            let data = try Data(contentsOf: wireStore).prefix(50)
            _ = FileManager.default.createFile(atPath: folder.path("short.sqlite"), contents: data)
            return folder.path("short.sqlite")
        }, message: "store 'short.sqlite' is truncated (50 bytes, shorter than a SQLite header)"),
        BadCase(name: "truncated pages", make: { folder in
            let data = try Data(contentsOf: wireStore).prefix(100 * 1024)
            _ = FileManager.default.createFile(atPath: folder.path("cut.sqlite"), contents: data)
            return folder.path("cut.sqlite")
        }, message: "store 'cut.sqlite' is truncated (102400 bytes; its header declares 131 pages of 4096 bytes)"),
        BadCase(name: "truncated mid-page", make: { folder in
            let data = try Data(contentsOf: wireStore).prefix(100 * 1024 + 123)
            _ = FileManager.default.createFile(atPath: folder.path("odd.sqlite"), contents: data)
            return folder.path("odd.sqlite")
        }, message: "store 'odd.sqlite' is truncated (102523 bytes is not a whole number of 4096-byte pages)"),
        BadCase(name: "plain SQLite", make: { folder in
            let queue = try DatabaseQueue(path: folder.path("plain.sqlite"))
            try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('x')") }
            try queue.close()
            return folder.path("plain.sqlite")
        }, message: "store 'plain.sqlite' is a SQLite database but not a Core Data store (no Z_METADATA table)"),
        BadCase(name: "no Z_PRIMARYKEY", make: { folder in
            let queue = try DatabaseQueue(path: folder.path("half.sqlite"))
            try queue.write { try $0.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)") }
            try queue.close()
            return folder.path("half.sqlite")
        }, message: "store 'half.sqlite' is a SQLite database but not a Core Data store (no Z_PRIMARYKEY table)"),
        BadCase(name: "Z_METADATA is a view", make: { folder in
            let queue = try DatabaseQueue(path: folder.path("view.sqlite"))
            try queue.write { try $0.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE VIEW Z_METADATA AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x AS Z_VERSION, NULL AS Z_UUID, NULL AS Z_PLIST FROM n;
                """) }
            try queue.close()
            return folder.path("view.sqlite")
        }, message: "store 'view.sqlite' is a SQLite database but not a Core Data store (no Z_METADATA table)"),
        BadCase(name: "malformed Z_METADATA", make: { folder in
            let queue = try DatabaseQueue(path: folder.path("columns.sqlite"))
            try queue.write { try $0.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (something INTEGER);
                """) }
            try queue.close()
            return folder.path("columns.sqlite")
        }, message: "store 'columns.sqlite' has a malformed Z_METADATA table: no such column: Z_VERSION"),
        BadCase(name: "corrupted schema", make: { folder in
            // Everything after the header page is garbage: the schema cannot be read.
            var data = try Data(contentsOf: wireStore)
            var random = SplitMix64(seed: 7)
            for index in 4096..<data.count { data[index] = UInt8(truncatingIfNeeded: random.next()) }
            _ = FileManager.default.createFile(atPath: folder.path("garbled.sqlite"), contents: data)
            return folder.path("garbled.sqlite")
        }, message: "store 'garbled.sqlite' cannot be opened as a SQLite database: database disk image is malformed"),
        BadCase(name: "corrupted table page", make: { folder in
            // Page 3 of SampleModel3_V1 is the root of ZUSER: the schema reads, counting fails.
            var data = try Data(contentsOf: StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel3/Fixtures/SampleModel3_V1.sqlite"))
            var random = SplitMix64(seed: 9)
            for index in 8192..<12288 { data[index] = UInt8(truncatingIfNeeded: random.next()) }
            _ = FileManager.default.createFile(atPath: folder.path("page.sqlite"), contents: data)
            return folder.path("page.sqlite")
        }, message: "store 'page.sqlite' is not a readable SQLite database: database disk image is malformed"),
    ]

    /// The cases built from corpus stores; they run in `StoreBadInputCorpusTests`.
    static let corpusCaseNames: Set<String> = ["truncated header", "truncated pages", "truncated mid-page", "corrupted schema", "corrupted table page"]

    @Test(arguments: fatalCases.filter { !corpusCaseNames.contains($0.name) })
    func unreadableStore(_ item: BadCase) throws {
        let folder = try TemporaryFolder()
        let path = try item.make(folder)
        let scratch = try TemporaryFolder()
        let before = try FileSnapshot.of(folder: folder.url)
        let name = (path as NSString).lastPathComponent

        var caught: StoreError?
        do {
            _ = try StoreReader().read(storeAt: path, displayPath: name, lockTimeout: 1, temporaryDirectory: scratch.url)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.diagnostic.code == .unreadableStore)
        #expect(error.diagnostic.severity == .error)
        #expect(error.diagnostic.message == item.message)
        #expect(error.diagnostic.location == SourceLocation(file: name))
        #expect([error.diagnostic].hasUnusableInput)
        #expect(try FileSnapshot.of(folder: folder.url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
    }

    /// Broken metadata is a CP300 error (Core Data cannot open the store: unusable input), but
    /// reading goes on and the store's tables still suggest its version.
    static let metadataErrorCases: [BadCase] = [
        BadCase(name: "corrupted Z_PLIST", make: { folder in
            try storeWithPlist(folder, "corrupt.sqlite", sql: "UPDATE Z_METADATA SET Z_PLIST = randomblob(300)")
        }, message: "store 'corrupt.sqlite' has a corrupted metadata plist (Z_PLIST is not a property list), so Core Data cannot open it; only its tables suggest its model version"),
        BadCase(name: "empty Z_PLIST", make: { folder in
            try storeWithPlist(folder, "noplist.sqlite", sql: "UPDATE Z_METADATA SET Z_PLIST = NULL")
        }, message: "store 'noplist.sqlite' has no metadata plist (Z_PLIST is empty), so Core Data cannot open it; only its tables suggest its model version"),
        BadCase(name: "no Z_METADATA row", make: { folder in
            try storeWithPlist(folder, "norow.sqlite", sql: "DELETE FROM Z_METADATA")
        }, message: "store 'norow.sqlite' has no row in Z_METADATA, so Core Data cannot open it; only its tables suggest its model version"),
        BadCase(name: "XML plist with entities", make: { folder in
            let xml = """
                <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa">]><plist version="1.0"><dict><key>NSStoreType</key><string>&a;</string></dict></plist>
                """
            return try storeWithPlist(folder, "entities.sqlite", sql: "UPDATE Z_METADATA SET Z_PLIST = CAST(? AS BLOB)", argument: xml)
        }, message: "store 'entities.sqlite' has a corrupted metadata plist (Z_PLIST is not a property list), so Core Data cannot open it; only its tables suggest its model version"),
    ]

    static func storeWithPlist(_ folder: TemporaryFolder, _ name: String, sql: String, argument: String? = nil) throws -> String {
        let source = StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V2.sqlite")
        let copied = try folder.copy(source, as: name)
        let queue = try DatabaseQueue(path: copied.path)
        try queue.write { db in
            if let argument { try db.execute(sql: sql, arguments: [argument]) } else { try db.execute(sql: sql) }
        }
        try queue.close()
        return copied.path
    }

}

extension CorpusTests {
    /// The tests of `StoreBadInputTests` that read `../shared`.
    @Suite struct StoreBadInputCorpusTests {
        /// Limits: a plist over the size limit is refused (warning), a schema over the object
        /// limit is refused (error).
        @Test func limits() throws {
            let folder = try TemporaryFolder()
            let path = try StoreBadInputTests.storeWithPlist(folder, "big.sqlite", sql: "UPDATE Z_METADATA SET Z_PLIST = zeroblob(5000)")
            let metadata = try StoreReader(maxPlistBytes: 4096).read(storeAt: path, displayPath: "big.sqlite")
            #expect(metadata.diagnostics.map(\.message)
                == ["store 'big.sqlite' has a metadata plist of 5000 bytes, over the limit of 4096; only its tables can identify its model version"])

            var caught: StoreError?
            do {
                _ = try StoreReader(maxSchemaObjects: 3).read(storeAt: path, displayPath: "big.sqlite")
            } catch {
                caught = error
            }
            #expect(caught?.diagnostic.message == "store 'big.sqlite' has more than 3 tables")
        }

        @Test(arguments: StoreBadInputTests.fatalCases.filter { StoreBadInputTests.corpusCaseNames.contains($0.name) })
        func unreadableStore(_ item: StoreBadInputTests.BadCase) throws {
            try StoreBadInputTests().unreadableStore(item)
        }

        @Test(arguments: StoreBadInputTests.metadataErrorCases)
        func unreadableMetadataIsUnusableInput(_ item: StoreBadInputTests.BadCase) throws {
            let folder = try TemporaryFolder()
            let path = try item.make(folder)
            let before = try FileSnapshot.of(folder: folder.url)
            let name = (path as NSString).lastPathComponent

            let metadata = try StoreReader().read(storeAt: path, displayPath: name)
            #expect(metadata.diagnostics.map(\.code) == [.unreadableStore])
            #expect(metadata.diagnostics.map(\.severity) == [.error])
            #expect(metadata.diagnostics.map(\.message) == [item.message])
            #expect(!metadata.isMetadataPlistReadable)
            #expect(metadata.modelVersionIdentifiers == [])
            #expect(metadata.modelVersionHashes == [:])
            #expect(metadata.diagnostics.hasUnusableInput)
            #expect(try FileSnapshot.of(folder: folder.url) == before)

            // The structure still identifies SampleModel2.
            let versions = try StoreCorpus.versions("\(StoreCorpus.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld")
            let result = StoreIdentifier.identify(metadata: metadata, versions: versions)
            #expect(result.detectedVersion == "SampleModel2")
            #expect(result.evidence == .structure)

            // A whole dry run: unusable input, the structure's suggestion kept, nothing simulated.
            let scratch = try TemporaryFolder()
            var options = DryRunOptions()
            options.temporaryDirectory = scratch.url
            let report = DryRunTests.planner().dryRun(inputAt: StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel/SampleModel.xcdatamodeld"),
                                                      storeAt: path, options: options)
            #expect(report.plan.diagnostics.hasUnusableInput)
            #expect(report.store?.detectedVersion == "SampleModel2")
            #expect(report.store?.steps.allSatisfy { $0.simulation == nil } == true)
            #expect(try FileSnapshot.of(folder: folder.url) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
        }

        /// A Core Data store of an unrelated app: no version of the bundle matches it (CP301 error),
        /// which is unusable input for a dry run; nothing is modified.
        @Test func storeOfAnUnrelatedApp() throws {
            let folder = try TemporaryFolder()
            let duck = "\(StoreCorpus.duckDuckGo)/DuckDuckGoTests/AppRatingPrompt_v1/Database.sqlite"
            let store = try folder.copy(StoreCorpus.url(duck))
            for side in ["-wal", "-shm"] { _ = try folder.copy(StoreCorpus.url(duck + side)) }
            let before = try FileSnapshot.of(folder: folder.url)
            let report = DryRunTests.planner().dryRun(inputAt: DryRunTests.grocery, storeAt: store.path, options: DryRunOptions())
            #expect(report.store?.detectedVersion == nil)
            #expect(report.plan.diagnostics.contains { $0.code == .unknownStoreVersion && $0.severity == .error })
            #expect(report.plan.diagnostics.hasUnusableInput)
            #expect(report.plan.paths.isEmpty)
            #expect(try FileSnapshot.of(folder: folder.url) == before)
        }
    }
}
