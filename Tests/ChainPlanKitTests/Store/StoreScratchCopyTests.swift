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

extension CorpusTests {
@Suite struct StoreScratchCopyTests {
    /// Reading every corpus store leaves its folder byte-identical (SHA-256 of every file,
    /// listing, sizes, modes, modification times) and leaves no scratch directory behind.
    @Test(arguments: StoreCorpus.cases)
    func corpusStoresAreNeverModified(_ item: StoreCorpus.Case) throws {
        let store = StoreCorpus.url(item.store)
        let folder = store.deletingLastPathComponent()
        let before = try FileSnapshot.of(folder: folder)
        #expect(before[store.lastPathComponent] != nil)
        let scratch = try TemporaryFolder()

        let copy = try StoreScratchCopy.make(storeAt: store.path, displayPath: item.description, temporaryDirectory: scratch.url)
        let directory = copy.directory
        #expect(FileManager.default.fileExists(atPath: copy.storeURL.path))
        #expect(StoreScratchCopy.liveDirectories.contains(directory.path))
        let metadata = try StoreReader().read(copy: copy)
        _ = StoreIdentifier.identify(metadata: metadata, versions: try StoreCorpus.versions(item.bundle))
        copy.remove()

        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(!StoreScratchCopy.liveDirectories.contains(directory.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
        #expect(try FileSnapshot.of(folder: folder) == before)
    }

    /// The scratch directory is private (0700) and holds the store with its side files.
    @Test func scratchDirectoryIsPrivateAndCopiesSideFiles() throws {
        let store = StoreCorpus.url("\(StoreCorpus.duckDuckGo)/DuckDuckGoTests/AppRatingPrompt_v1/Database.sqlite")
        let copy = try StoreScratchCopy.make(storeAt: store.path)
        defer { copy.remove() }
        var info = stat()
        #expect(stat(copy.directory.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(copy.copiedSideFiles == ["-wal", "-shm"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.directory.path).sorted()
            == ["Database.sqlite", "Database.sqlite-shm", "Database.sqlite-wal"])
        #expect(copy.bytesCopied == 45056 + 32768 + 65952)
        #expect(copy.hasWAL)
    }

    /// SurfJournal's 5000 rows exist only in its -wal: the copy must see them.
    @Test func surfJournalRowsComeFromTheWAL() throws {
        let store = StoreCorpus.url("\(StoreCorpus.surf)/CoreDataSeed/SurfJournalModel.sqlite")
        let metadata = try StoreReader().read(storeAt: store.path, displayPath: "SurfJournalModel.sqlite")
        #expect(metadata.table(named: "ZJOURNALENTRY")?.rowCount == 5000)
        #expect(metadata.entity(named: "JournalEntry")?.rowCount == 5000)
        #expect(metadata.entity(named: "JournalEntry")?.maxPrimaryKey == 5000)
        #expect(metadata.isWALMode)
        #expect(metadata.fileBytes == 20480)
        #expect(metadata.walBytes == 222_512)
        #expect(metadata.modelVersionIdentifiers == [""])
        #expect((metadata.table(named: "ZJOURNALENTRY")?.averageRowBytes ?? 0) > 0)
    }

    /// A store in a read-only folder, with read-only files, is read without change.
    @Test(arguments: ["SampleModel_V2.sqlite", "Database.sqlite"])
    func readOnlyFolder(_ name: String) throws {
        let folder = try TemporaryFolder()
        let source = name == "Database.sqlite"
            ? StoreCorpus.url("\(StoreCorpus.duckDuckGo)/DuckDuckGoTests/AppRatingPrompt_v1/Database.sqlite")
            : StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V2.sqlite")
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: source.path + suffix)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            let copied = try folder.copy(file)
            chmod(copied.path, 0o444)
        }
        chmod(folder.url.path, 0o555)
        let before = try FileSnapshot.of(folder: folder.url)

        let metadata = try StoreReader().read(storeAt: folder.path(name), displayPath: name)
        #expect(metadata.storeType == "SQLite")
        #expect(!metadata.entities.isEmpty)
        #expect(try FileSnapshot.of(folder: folder.url) == before)
    }

    /// A symbolic link to a store: side files are found next to the target, as SQLite does.
    @Test func symbolicLinkToAStore() throws {
        let folder = try TemporaryFolder()
        let target = StoreCorpus.url("\(StoreCorpus.surf)/CoreDataSeed/SurfJournalModel.sqlite")
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.sqlite"), withDestinationPath: target.path)
        let copy = try StoreScratchCopy.make(storeAt: folder.path("link.sqlite"), displayPath: "link.sqlite")
        defer { copy.remove() }
        guard case .success(let resolved) = FileAccess.canonicalPath(target.path) else {
            Issue.record("corpus store missing")
            return
        }
        #expect(copy.originalPath == resolved)
        #expect(copy.displayPath == "link.sqlite")
        #expect(copy.copiedSideFiles == ["-wal", "-shm"])
        #expect(copy.storeURL.lastPathComponent == "SurfJournalModel.sqlite")
        #expect(try StoreReader().read(copy: copy).table(named: "ZJOURNALENTRY")?.rowCount == 5000)
    }

    /// External binary data in `.<name>_SUPPORT/` is copied (regular files and folders;
    /// symbolic links are not followed).
    @Test func supportFolderIsCopied() throws {
        let folder = try TemporaryFolder()
        _ = try folder.copy(StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel3/Fixtures/SampleModel3_V1.sqlite"))
        let support = folder.url.appendingPathComponent(".SampleModel3_V1_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 1000).write(to: support.appendingPathComponent("A1B2"))
        try FileManager.default.createSymbolicLink(atPath: support.appendingPathComponent("link").path, withDestinationPath: "/etc/hostname")
        let before = try FileSnapshot.of(folder: folder.url)

        let copy = try StoreScratchCopy.make(storeAt: folder.path("SampleModel3_V1.sqlite"))
        defer { copy.remove() }
        #expect(copy.supportFileCount == 1)
        #expect(copy.bytesCopied == 24576 + 1000)
        let copied = copy.directory.appendingPathComponent(".SampleModel3_V1_SUPPORT/_EXTERNAL_DATA")
        #expect(try FileManager.default.contentsOfDirectory(atPath: copied.path) == ["A1B2"])
        #expect(try Data(contentsOf: copied.appendingPathComponent("A1B2")) == Data(repeating: 7, count: 1000))
        #expect(try FileSnapshot.of(folder: folder.url) == before)
    }

    /// The registry used by `removeAllLive()` removes what is registered (tested on a
    /// private instance: the shared one belongs to tests running in parallel).
    @Test func registryRemovesLiveDirectories() throws {
        let folder = try TemporaryFolder()
        let registry = ScratchRegistry()
        let first = folder.url.appendingPathComponent("one")
        let second = folder.url.appendingPathComponent("two")
        for directory in [first, second] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("inner"), withIntermediateDirectories: true)
            registry.register(directory.path)
        }
        #expect(registry.snapshot() == [first.path, second.path])
        registry.removeAll()
        #expect(registry.snapshot() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    /// Releasing the last reference removes the scratch directory.
    @Test func releasingRemovesTheCopy() throws {
        let store = StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel3/Fixtures/SampleModel3_V1.sqlite")
        var copy: StoreScratchCopy? = try StoreScratchCopy.make(storeAt: store.path)
        let directory = try #require(copy?.directory)
        #expect(FileManager.default.fileExists(atPath: directory.path))
        copy = nil
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(!StoreScratchCopy.liveDirectories.contains(directory.path))
    }
}
}

extension CorpusTests {
/// Another process holding a write lock: the copy waits, then fails with CP300.
@Suite struct StoreLockTests {
    struct LockCase: Sendable, CustomStringConvertible {
        var store: String
        var statement: String
        var description: String { "\((store as NSString).lastPathComponent) \(statement)" }
    }

    static let cases: [LockCase] = [
        // WAL mode: BEGIN IMMEDIATE takes the WAL write lock in -shm.
        LockCase(store: "\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V1.sqlite", statement: "BEGIN IMMEDIATE;"),
        // Rollback journal: RESERVED, then EXCLUSIVE.
        LockCase(store: "\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V2.sqlite", statement: "BEGIN IMMEDIATE;"),
        LockCase(store: "\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V2.sqlite", statement: "BEGIN EXCLUSIVE;"),
    ]

    @Test(arguments: cases)
    func writerInAnotherProcess(_ item: LockCase) throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(StoreCorpus.url(item.store))
        let scratch = folder.url.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let hashBefore = try FileSnapshot.sha256(store.path)

        let writer = try LockingProcess(database: store.path, statement: item.statement)
        defer { writer.finish() }
        #expect(writer.waitUntilLocked(), "the sqlite3 process never took its lock")

        let started = Date()
        var caught: StoreError?
        do {
            _ = try StoreScratchCopy.make(storeAt: store.path, displayPath: "locked.sqlite", lockTimeout: 0.4,
                                          temporaryDirectory: scratch)
        } catch {
            caught = error
        }
        let waited = Date().timeIntervalSince(started)
        let error = try #require(caught)
        #expect(error.diagnostic.code == .unreadableStore)
        #expect(error.diagnostic.severity == .error)
        #expect(error.diagnostic.message == "store 'locked.sqlite' is locked by another process (waited 0.4 s)")
        #expect(waited >= 0.4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        #expect(try FileSnapshot.sha256(store.path) == hashBefore)

        // Once the writer is gone the copy succeeds.
        writer.finish()
        let copy = try StoreScratchCopy.make(storeAt: store.path, lockTimeout: 5, temporaryDirectory: scratch)
        #expect(FileManager.default.fileExists(atPath: copy.storeURL.path))
        copy.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        #expect(try FileSnapshot.sha256(store.path) == hashBefore)
    }
}
}

/// `/usr/bin/sqlite3` running a statement and keeping its connection open until `finish()`.
final class LockingProcess: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let database: String
    private var finished = false

    init(database: String, statement: String) throws {
        self.database = database
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((statement + "\n").utf8))
    }

    /// Polls the lock bytes until the child holds a write lock (at most 10 s).
    func waitUntilLocked() -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.writeLocked(database) { return true }
            usleep(10_000)
        }
        return false
    }

    static func writeLocked(_ database: String) -> Bool {
        var locked = false
        let main = open(database, O_RDONLY)
        if main >= 0 {
            locked = SQLiteLocks.writeLockHeld(main, start: SQLiteLocks.pending, length: 2 + SQLiteLocks.sharedSize)
            close(main)
        }
        let shm = open(database + "-shm", O_RDONLY)
        if shm >= 0 {
            locked = locked || SQLiteLocks.writeLockHeld(shm, start: SQLiteLocks.shmWrite, length: 1)
            close(shm)
        }
        return locked
    }

    /// Closes the child's input (it rolls back and exits) and waits for it.
    func finish() {
        guard !finished else { return }
        finished = true
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

extension CorpusTests {
/// The read locks taken during a copy really stop another process from committing.
@Suite struct SQLiteLockTests {
    /// Runs `/usr/bin/sqlite3 -bail` on `database`; returns the exit status and stderr.
    static func sqlite(_ database: String, _ sql: String) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", database, sql]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let commit = "BEGIN IMMEDIATE; UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1; COMMIT;"

    /// Rollback journal: a read lock on the SHARED range blocks the writer's EXCLUSIVE lock.
    @Test func sharedRangeBlocksARollbackJournalCommit() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V2.sqlite"))
        let before = try FileSnapshot.sha256(store.path)
        let descriptor = open(store.path, O_RDONLY)
        #expect(descriptor >= 0)
        #expect(SQLiteLocks.tryReadLock(descriptor, start: SQLiteLocks.sharedFirst, length: SQLiteLocks.sharedSize))

        let blocked = try Self.sqlite(store.path, Self.commit)
        #expect(blocked.status != 0)
        #expect(blocked.error.contains("database is locked"))
        #expect(try FileSnapshot.sha256(store.path) == before)

        close(descriptor)
        let allowed = try Self.sqlite(store.path, Self.commit)
        #expect(allowed.status == 0)
        #expect(try FileSnapshot.sha256(store.path) != before)
    }

    /// WAL: a read lock on the WAL-index write byte blocks every WAL writer.
    @Test func walIndexWriteByteBlocksAWALCommit() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(StoreCorpus.url("\(StoreCorpus.coreDataPlus)/SampleModel/Fixtures/SampleModel_V1.sqlite"))
        // A reader keeps the database open, so -shm exists while the test locks it.
        let reader = try LockingProcess(database: store.path, statement: "BEGIN; SELECT COUNT(*) FROM Z_PRIMARYKEY;")
        defer { reader.finish() }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: store.path + "-shm"), Date() < deadline { usleep(10_000) }
        usleep(100_000)
        let shm = open(store.path + "-shm", O_RDONLY)
        #expect(shm >= 0)
        #expect(SQLiteLocks.tryReadLock(shm, start: SQLiteLocks.shmWrite, length: 2))
        let before = try FileSnapshot.sha256(store.path)
        let walBefore = try FileSnapshot.sha256(store.path + "-wal")

        let blocked = try Self.sqlite(store.path, Self.commit)
        #expect(blocked.status != 0)
        #expect(blocked.error.contains("database is locked"))
        #expect(try FileSnapshot.sha256(store.path) == before)
        #expect(try FileSnapshot.sha256(store.path + "-wal") == walBefore)

        close(shm)
        let allowed = try Self.sqlite(store.path, Self.commit)
        #expect(allowed.status == 0)
        #expect(try FileSnapshot.sha256(store.path + "-wal") != walBefore)
    }
}
}
