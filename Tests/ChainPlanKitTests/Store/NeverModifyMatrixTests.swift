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
#if canImport(Glibc)
import Glibc
#endif

/// The never-modify guarantee of a whole dry run (copy, read, identify, simulate), over a matrix
/// of journal modes, side files, folder permissions and locks: the store's folder is identical
/// afterwards (every file's bytes, sizes, modes, times; no file added) and no scratch directory
/// is left. Interruption by SIGINT/SIGTERM is in ChainPlanCLITests (DryRunSignalTests).
@Suite(.serialized) struct NeverModifyMatrixTests {
    struct Store: Sendable, CustomStringConvertible {
        var name: String
        /// Corpus files to copy (the store first), or nil for a chainplan fixture.
        var files: [String]?
        var bundle: URL
        var momd: String?
        var version: String
        var description: String { name }
    }

    static let sample = "\(StoreCorpus.coreDataPlus)/SampleModel"
    static let surf = "\(StoreCorpus.surf)/CoreDataSeed/SurfJournalModel.sqlite"
    static let duck = "\(StoreCorpus.duckDuckGo)/DuckDuckGoTests/AppRatingPrompt_v1/Database.sqlite"

    static let stores: [Store] = [
        Store(name: "rollback journal (fixture, simulated steps)", files: nil,
              bundle: TestPaths.chains.appendingPathComponent("grocery-dude/chain.json"), version: "Model 2"),
        Store(name: "rollback journal (CoreDataPlus)", files: ["\(sample)/Fixtures/SampleModel_V2.sqlite"],
              bundle: StoreCorpus.url("\(sample)/SampleModel.xcdatamodeld"), momd: "\(sample)/Fixtures/SampleModel.momd", version: "SampleModel2"),
        Store(name: "WAL with -wal and -shm, data only in the WAL", files: [surf, surf + "-wal", surf + "-shm"],
              bundle: StoreCorpus.url("\(StoreCorpus.surf)/SurfJournalModel.xcdatamodeld"), version: "SurfJournalModel"),
        Store(name: "WAL with -wal, no -shm", files: [surf, surf + "-wal"],
              bundle: StoreCorpus.url("\(StoreCorpus.surf)/SurfJournalModel.xcdatamodeld"), version: "SurfJournalModel"),
        Store(name: "WAL with -wal and -shm (merged model)", files: [duck, duck + "-wal", duck + "-shm"],
              bundle: StoreCorpus.url("\(StoreCorpus.duckDuckGo)/DuckDuckGo/AppRatingPrompt.xcdatamodeld"), version: "AppRatingPrompt"),
        Store(name: "WAL header, no side files", files: ["\(sample)/Fixtures/SampleModel_V1.sqlite"],
              bundle: StoreCorpus.url("\(sample)/SampleModel.xcdatamodeld"), momd: "\(sample)/Fixtures/SampleModel.momd", version: "SampleModel"),
    ]

    /// Puts the store in `folder/store`, returns its path.
    static func place(_ store: Store, in folder: TemporaryFolder) throws -> String {
        let directory = folder.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let files = store.files else {
            let path = directory.appendingPathComponent("Grocery.sqlite").path
            let bundle = try #require(DryRunTests.planner().bundle(inputAt: store.bundle))
            _ = try StoreFixtureWriter(rowsPerEntity: 200).write(model: try #require(bundle.version(named: store.version)?.model),
                                                               versionName: store.version, to: path)
            return path
        }
        for file in files { try FileManager.default.copyItem(at: StoreCorpus.url(file), to: directory.appendingPathComponent((file as NSString).lastPathComponent)) }
        return directory.appendingPathComponent((files[0] as NSString).lastPathComponent).path
    }

    /// The chainplan fixture (always there); the corpus stores are in `NeverModifyMatrixCorpusTests`.
    static let fixtureStores = stores.filter { $0.files == nil }
    static let corpusStores = stores.filter { $0.files != nil }

    @Test(arguments: fixtureStores)
    func dryRunLeavesTheFolderAsItWas(_ store: Store) throws {
        try Self.dryRunLeavesTheFolderAsItWas(store, readOnlyFolder: false)
    }

    /// chmod means nothing to root (tests run as root here and in CI): as root, the dry run runs
    /// in a child process as `nobody`, for whom the folder really is read-only.
    @Test(.enabled(if: geteuid() != 0 || Unprivileged.command != nil,
                   "running as root without setpriv or runuser: the folder cannot be made read-only to the dry run"),
          arguments: fixtureStores)
    func dryRunLeavesAReadOnlyFolderAsItWas(_ store: Store) throws {
        try Self.dryRunLeavesTheFolderAsItWas(store, readOnlyFolder: true)
    }

    static func dryRunLeavesTheFolderAsItWas(_ store: Store, readOnlyFolder: Bool) throws {
        let folder = try TemporaryFolder()
        chmod(folder.url.path, 0o755)
        let path = try Self.place(store, in: folder)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let scratch = folder.url.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        if readOnlyFolder {
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) { chmod(directory.appendingPathComponent(file).path, 0o444) }
            chmod(directory.path, 0o555)
        }
        defer { chmod(directory.path, 0o755) }
        let before = try FileSnapshot.of(folder: directory)

        if readOnlyFolder, geteuid() == 0 {
            try Self.dryRunAsNobody(store, path: path, directory: directory, scratch: scratch)
            #expect(try FileSnapshot.of(folder: directory) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
            return
        }

        var options = DryRunOptions()
        options.momd = store.momd.map { StoreCorpus.url($0).path }
        options.temporaryDirectory = scratch
        // While the simulation runs, the copy is in the scratch directory.
        let seen = StatementLog()
        options.progress = { _, _, _ in
            seen.append(((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []).isEmpty ? "empty" : "copy")
        }
        let report = DryRunTests.planner().dryRun(inputAt: store.bundle, storeAt: path, options: options)
        if store.files == nil { #expect(seen.statements.contains("copy") && !seen.statements.contains("empty")) }

        #expect(report.store?.detectedVersion == store.version)
        #expect(!report.plan.diagnostics.contains { $0.code == .unreadableStore }, "\(report.plan.diagnostics.filter { $0.code == .unreadableStore }.map(\.message))")
        #expect(try FileSnapshot.of(folder: directory) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
    }

    /// The built `chainplan`, run as `nobody` (uid/gid 65534, no supplementary groups) on a
    /// folder that is then really read-only to it; its scratch directory is writable to it.
    static func dryRunAsNobody(_ store: Store, path: String, directory: URL, scratch: URL) throws {
        let command = try #require(Unprivileged.command)
        let binary = TestPaths.packageRoot.appendingPathComponent(".build/debug/chainplan")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build chainplan first (swift build)")
        chmod(scratch.path, 0o777)
        // The checkout may sit in a folder nobody cannot enter (a clone under `mktemp -d`, 0700):
        // nobody runs a copy of the binary and of the chain, beside the store.
        let readable = directory.deletingLastPathComponent().appendingPathComponent("readable")
        try FileManager.default.createDirectory(at: readable, withIntermediateDirectories: true)
        let binaryCopy = readable.appendingPathComponent("chainplan")
        try FileManager.default.copyItem(at: binary, to: binaryCopy)
        let chainCopy = readable.appendingPathComponent(store.bundle.deletingLastPathComponent().lastPathComponent)
        try FileManager.default.copyItem(at: store.bundle.deletingLastPathComponent(), to: chainCopy)
        let bundleCopy = chainCopy.appendingPathComponent(store.bundle.lastPathComponent)
        try Self.makeWorldReadable(readable)
        // The case is real: nobody cannot create a file in the store's folder, but can read the store.
        #expect(try Unprivileged.run(command + ["/usr/bin/touch", directory.appendingPathComponent("probe").path]).status != 0)
        #expect(try Unprivileged.run(command + ["/usr/bin/head", "-c", "16", path]).status == 0)

        var arguments = command + ["/usr/bin/env", "TMPDIR=" + scratch.path, binaryCopy.path, "dry-run", bundleCopy.path, "--store", path, "--format", "json"]
        if let momd = store.momd { arguments += ["--momd", StoreCorpus.url(momd).path] }
        let outcome = try Unprivileged.run(arguments)
        #expect([0, 1].contains(outcome.status), "exit \(outcome.status): \(outcome.error)")
        let document = try #require(try JSONSerialization.jsonObject(with: outcome.output) as? [String: Any])
        let summary = try #require(document["store"] as? [String: Any])
        #expect(summary["detectedVersion"] as? String == store.version)
        let diagnostics = document["diagnostics"] as? [[String: Any]] ?? []
        #expect(!diagnostics.contains { $0["code"] as? String == "CP300" }, "\(diagnostics.filter { $0["code"] as? String == "CP300" })")
    }

    /// Folders 0755, files 0644 (the binary 0755), all the way down.
    static func makeWorldReadable(_ root: URL) throws {
        chmod(root.path, 0o755)
        guard let walk = FileManager.default.enumerator(atPath: root.path) else { return }
        for case let relative as String in walk {
            let item = root.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isDirectory)
            let executable = isDirectory.boolValue || FileManager.default.isExecutableFile(atPath: item.path)
            chmod(item.path, executable ? 0o755 : 0o644)
        }
    }

    @Test(arguments: [stores.first { $0.name == "rollback journal (fixture, simulated steps)" }].compactMap { $0 })
    func lockedByAnotherWriter(_ store: Store) throws {
        let folder = try TemporaryFolder()
        let path = try Self.place(store, in: folder)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let scratch = folder.url.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let writer = try LockingProcess(database: path, statement: "BEGIN IMMEDIATE;")
        defer { writer.finish() }
        #expect(writer.waitUntilLocked(), "the sqlite3 process never took its lock")
        let before = try FileSnapshot.of(folder: directory)

        var options = DryRunOptions()
        options.lockTimeout = 0.3
        options.temporaryDirectory = scratch
        let report = DryRunTests.planner().dryRun(inputAt: store.bundle, storeAt: path, options: options)
        #expect(report.plan.diagnostics.contains { $0.code == .unreadableStore && $0.severity == .error && $0.message.contains("locked by another process") })
        #expect(report.plan.diagnostics.hasUnusableInput)
        #expect(try FileSnapshot.of(folder: directory) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
    }
}

/// Dropping root for a child process: `setpriv` (util-linux) or `runuser`, whichever exists.
enum Unprivileged {
    static let command: [String]? = {
        for setpriv in ["/usr/bin/setpriv", "/bin/setpriv"] where FileManager.default.isExecutableFile(atPath: setpriv) {
            return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        for runuser in ["/usr/sbin/runuser", "/sbin/runuser"] where FileManager.default.isExecutableFile(atPath: runuser) {
            return [runuser, "-u", "nobody", "--"]
        }
        return nil
    }()

    struct Outcome {
        var status: Int32
        var output: Data
        var error: String
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the child runs (a full pipe would block it).
        let errorData = LockedData()
        let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.done { usleep(1_000) }
        return Outcome(status: process.terminationStatus, output: data, error: String(decoding: errorData.data, as: UTF8.self))
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var value = Data()
        private var finished = false
        func set(_ data: Data) { lock.lock(); value = data; finished = true; lock.unlock() }
        var done: Bool { lock.lock(); defer { lock.unlock() }; return finished }
        var data: Data { lock.lock(); defer { lock.unlock() }; return value }
    }
}

extension CorpusTests {
    /// The never-modify matrix over the corpus's stores (WAL with and without side files, merged models).
    @Suite(.serialized) struct NeverModifyMatrixCorpusTests {
        @Test(arguments: NeverModifyMatrixTests.corpusStores)
        func dryRunLeavesTheFolderAsItWas(_ store: NeverModifyMatrixTests.Store) throws {
            try NeverModifyMatrixTests.dryRunLeavesTheFolderAsItWas(store, readOnlyFolder: false)
        }

        @Test(.enabled(if: geteuid() != 0 || Unprivileged.command != nil,
                       "running as root without setpriv or runuser: the folder cannot be made read-only to the dry run"),
              arguments: NeverModifyMatrixTests.corpusStores)
        func dryRunLeavesAReadOnlyFolderAsItWas(_ store: NeverModifyMatrixTests.Store) throws {
            try NeverModifyMatrixTests.dryRunLeavesTheFolderAsItWas(store, readOnlyFolder: true)
        }

        @Test(arguments: NeverModifyMatrixTests.corpusStores.filter { $0.name == "rollback journal (CoreDataPlus)" || $0.name.hasPrefix("WAL with -wal and -shm, data") })
        func lockedByAnotherWriter(_ store: NeverModifyMatrixTests.Store) throws {
            try NeverModifyMatrixTests().lockedByAnotherWriter(store)
        }
    }
}
