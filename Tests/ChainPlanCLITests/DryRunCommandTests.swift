import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ChainPlanCLI

/// `chainplan fixture` and `chainplan dry-run`, in-process (the simulation and data checks
/// themselves are tested in ChainPlanKitTests/Store/DryRunTests).
@Suite("chainplan dry-run")
struct DryRunCommandTests {
    static let grocery = CLITests.root.appendingPathComponent("Chains/grocery-dude/chain.json").path

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-dryrun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func fixtureThenDryRunAsJSON() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model 2", "--rows", "40", "-o", store]) == 0)
        // The fixture command never replaces a file.
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model 2", "-o", store]) == 2)
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Nope", "-o", store + "2"]) == 2)

        let sql = directory.appendingPathComponent("migration.sql")
        let run = await OutputCapture.run(["dry-run", Self.grocery, "--store", store, "--format", "json", "--sql-log", sql.path])
        #expect(run.status == 0)
        let data = Data(run.output.utf8)
        #expect(try ReportSchemaTests.problems(in: data).isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let summary = try #require(document["store"] as? [String: Any])
        #expect(summary["detectedVersion"] as? String == "Model 2")
        #expect(summary["evidence"] as? String == "hashes")
        let paths = try #require(document["paths"] as? [[String: Any]])
        #expect(paths.map { $0["start"] as? String } == ["Model 2"])
        let steps = try #require(summary["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
        #expect(steps.allSatisfy { $0["simulation"] != nil })
        let entities = try #require(document["entities"] as? [[String: Any]])
        #expect(entities.contains { $0["name"] as? String == "Item" && $0["table"] as? String == "ZITEM" && $0["rows"] as? Int == 40 })
        let log = try String(contentsOf: sql, encoding: .utf8)
        #expect(log.contains("CREATE TABLE \"_CHAINPLAN_ZAMOUNT\""))
    }

    /// `heavyweight-memory-mb` in .chainplan.yml sets the CP303 threshold; `--memory-limit` overrides it.
    /// Store/Heavy's step is one Core Data's builder refuses (a String → Integer type change), so it
    /// is heavyweight and the memory threshold applies.
    @Test func memoryThresholdFromTheConfigurationAndTheCommandLine() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let example = CLITests.root.appendingPathComponent("Tests/Fixtures/Store/Heavy")
        for item in try FileManager.default.contentsOfDirectory(atPath: example.path) {
            try FileManager.default.copyItem(at: example.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        let spec = directory.appendingPathComponent("chain.json").path
        let store = directory.appendingPathComponent("store.sqlite").path
        #expect(await ChainPlan.run(arguments: ["fixture", spec, "--model-version", "V1", "--rows", "30000", "-o", store]) == 0)
        func heavyweightMemory(_ extra: [String]) async throws -> Bool {
            await OutputCapture.run(["dry-run", spec, "--store", store, "--no-simulate"] + extra).output.contains("[CP303]")
        }
        #expect(try await !heavyweightMemory([]))
        try Data("thresholds:\n  heavyweight-memory-mb: 1\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(try await heavyweightMemory([]))
        #expect(try await !heavyweightMemory(["--memory-limit", "1024"]))
        try Data("thresholds:\n  heavyweight-memory-mb: 1024\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(try await !heavyweightMemory([]))
        #expect(try await heavyweightMemory(["--memory-limit", "1"]))
    }

    /// An entity whose table exists but is empty still has its `table`.
    @Test func emptyEntitiesKeepTheirTable() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("empty.sqlite").path
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model 2", "--rows", "0", "-o", store]) == 0)
        let run = await OutputCapture.run(["dry-run", Self.grocery, "--store", store, "--format", "json"])
        #expect(run.status == 0)
        let data = Data(run.output.utf8)
        #expect(try ReportSchemaTests.problems(in: data).isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entities = try #require(document["entities"] as? [[String: Any]])
        #expect(!entities.isEmpty)
        #expect(entities.allSatisfy { $0["rows"] as? Int == 0 && $0["table"] is String })
    }

    /// `fixture --model-version` is the spelling in help; the old `--version` still works and is
    /// hidden (it sat beside the global `--version` flag); giving both is a usage error.
    @Test func fixtureModelVersionSpellings() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path: (String) -> String = { directory.appendingPathComponent("\($0).sqlite").path }
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model", "--rows", "1", "-o", path("a")]) == 0)
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--version", "Model", "--rows", "1", "-o", path("b")]) == 0)
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model", "--version", "Model", "-o", path("c")]) == 2)
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "-o", path("d")]) == 2)
        #expect(!FileManager.default.fileExists(atPath: path("c")) && !FileManager.default.fileExists(atPath: path("d")))
        let help = FixtureCommand.helpMessage()
        #expect(help.contains("--model-version <name>"))
        #expect(!help.contains("--version <name>"))
    }

    @Test func textShowsTheStoreAndEachSimulatedStep() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        _ = await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model", "--rows", "5", "-o", store])
        let text = await OutputCapture.run(["dry-run", Self.grocery, "--store", store]).output
        #expect(text.contains("version 'Model' by hashes"))
        #expect(text.contains("Model → Model 2: lightweight, in-place SQL on ZITEM (5 rows)"))
        #expect(text.contains("ZITEM columns added ZFAVOURITE, ZBRAND"))
        #expect(text.contains("simulated: "))

        let quiet = await OutputCapture.run(["dry-run", Self.grocery, "--store", store, "--no-simulate"]).output
        #expect(!quiet.contains("simulated: "))
    }

    static func python(_ code: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code] + arguments
        try process.run()
        process.waitUntilExit()
    }

    /// Unusable stores are a coded CP300 (CP301 for a store no version matches) and exit 2, and
    /// are left as they were.
    @Test(arguments: ["empty", "directory", "text", "plain SQLite", "missing", "corrupted Z_PLIST", "empty Z_PLIST", "no Z_METADATA row",
                      "unrelated app"])
    func unusableStore(_ kind: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite")
        switch kind {
        case "empty": try Data().write(to: store)
        case "directory": try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
        case "text": try Data("not a database, just some text\n".utf8).write(to: store)
        case "plain SQLite":
            try Self.python("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()", [store.path])
        case "corrupted Z_PLIST", "empty Z_PLIST", "no Z_METADATA row":
            #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model 2", "--rows", "5", "-o", store.path]) == 0)
            let sql = ["corrupted Z_PLIST": "update Z_METADATA set Z_PLIST = randomblob(300)", "empty Z_PLIST": "update Z_METADATA set Z_PLIST = NULL",
                       "no Z_METADATA row": "delete from Z_METADATA"][kind] ?? ""
            try Self.python("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit(); c.close()", [store.path, sql])
        case "unrelated app":
            // A store another app's model wrote (a fixture of our own, not the corpus's).
            let other = CLITests.root.appendingPathComponent("Tests/Fixtures/Model/Single.xcdatamodeld").path
            #expect(await ChainPlan.run(arguments: ["fixture", other, "--model-version", "Only One", "--rows", "3", "-o", store.path]) == 0)
        default: break
        }
        let before = kind == "missing" || kind == "directory" ? nil : try Data(contentsOf: store)
        let run = await OutputCapture.run(["dry-run", Self.grocery, "--store", store.path, "--format", "json"])
        #expect(run.status == 2)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let codes = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains(kind == "unrelated app" ? "CP301" : "CP300"))
        if let before { #expect(try Data(contentsOf: store) == before) }
        if kind.contains("Z_") {
            // The structure still names the version it suggests.
            let summary = try #require(document["store"] as? [String: Any])
            #expect(summary["detectedVersion"] as? String == "Model 2")
        }
        if kind == "unrelated app" {
            // Unknown is null, not missing.
            let summary = try #require(document["store"] as? [String: Any])
            #expect(summary["detectedVersion"] is NSNull && summary["evidence"] is NSNull)
        }
    }

    /// A store that does not exist: its finding alone on standard output, one line on standard
    /// error saying what was not reported; no direct jumps, deferrals or chain summary.
    @Test func missingStoreReportsOnlyItsFinding() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("absent.sqlite").path
        let run = await OutputCapture.run(["dry-run", Self.grocery, "--store", store])
        #expect(run.status == 2)
        // The path is shown relative to the working folder, wherever the clone is.
        let lines = run.output.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].hasSuffix("absent.sqlite' does not exist [CP300]") && lines[0].contains(": error: store '"),
                "\(run.output)")
        #expect(run.error.hasPrefix("chainplan: the store cannot be used; the chain"), "\(run.error)")
        #expect(run.error.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(run.error)")
        let json = await OutputCapture.run(["dry-run", Self.grocery, "--store", store, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((document["paths"] as? [Any])?.isEmpty == true && (document["steps"] as? [Any])?.isEmpty == true)
    }

    /// Every file in `directory` (recursively, hidden ones too) with its bytes; symbolic links by target.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: directory.path) else { return files }
        while let entry = enumerator.nextObject() as? String {
            let path = directory.appendingPathComponent(entry).path
            if let target = try? manager.destinationOfSymbolicLink(atPath: path) {
                files[entry] = Data(("-> " + target).utf8)
            } else if let data = manager.contents(atPath: path) {
                files[entry] = data
            } else {
                files[entry] = Data()
            }
        }
        return files
    }

    /// An output that resolves to the store, a side file or its support folder is a usage error
    /// (exit 2) and nothing at all is written, not even the outputs that were fine.
    static let clobberingOutputs: [(name: String, arguments: [String])] = [
        ("--sql-log is the store", ["--sql-log", "g2.sqlite"]),
        ("-o is the store", ["-o", "g2.sqlite"]),
        ("-o of a second format is the store", ["--format", "json", "-o", "ok.json", "--format", "text", "-o", "g2.sqlite"]),
        ("-o through ./ and ..", ["-o", "./sub/../g2.sqlite"]),
        ("-o is the -wal", ["-o", "g2.sqlite-wal"]),
        ("--sql-log is the -shm", ["--sql-log", "g2.sqlite-shm", "-o", "ok.txt"]),
        ("-o is the -journal (absent)", ["-o", "g2.sqlite-journal"]),
        ("--sql-log inside the support folder", ["--sql-log", ".g2_SUPPORT/_EXTERNAL_DATA/new.sql"]),
        ("-o is a file of the support folder", ["-o", ".g2_SUPPORT/_EXTERNAL_DATA/blob"]),
        ("-o is a symbolic link to the store", ["-o", "link.sqlite"]),
        ("--sql-log is a dangling link to the -journal", ["--sql-log", "dangling.sql"]),
        ("-o is a hard link to the store", ["-o", "hard.sqlite"]),
        ("-o is a hard link to a support file", ["-o", "hardblob"]),
        ("-o under a linked folder to the support folder", ["-o", "support/x.txt"]),
    ]

    @Test(arguments: clobberingOutputs.map(\.name))
    func outputResolvingToTheStoreIsRefused(_ name: String) async throws {
        let arguments = try #require(Self.clobberingOutputs.first { $0.name == name }).arguments
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("g2.sqlite").path
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model 2", "--rows", "5", "-o", store]) == 0)
        let manager = FileManager.default
        try Data("wal".utf8).write(to: directory.appendingPathComponent("g2.sqlite-wal"))
        try Data("shm".utf8).write(to: directory.appendingPathComponent("g2.sqlite-shm"))
        let external = directory.appendingPathComponent(".g2_SUPPORT/_EXTERNAL_DATA")
        try manager.createDirectory(at: external, withIntermediateDirectories: true)
        try Data("blob".utf8).write(to: external.appendingPathComponent("blob"))
        try manager.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("link.sqlite").path, withDestinationPath: "g2.sqlite")
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("dangling.sql").path, withDestinationPath: "g2.sqlite-journal")
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("support").path, withDestinationPath: ".g2_SUPPORT")
        #expect(link(store, directory.appendingPathComponent("hard.sqlite").path) == 0)
        #expect(link(external.appendingPathComponent("blob").path, directory.appendingPathComponent("hardblob").path) == 0)
        let before = try Self.snapshot(directory)

        // Paths relative to the store's folder (tests run in parallel: no chdir).
        let absolute = arguments.enumerated().map { index, argument in
            index > 0 && ["-o", "--sql-log"].contains(arguments[index - 1]) ? directory.path + "/" + argument : argument
        }
        let status = await ChainPlan.run(arguments: ["dry-run", Self.grocery, "--store", store] + absolute)
        #expect(status == 2)
        #expect(try Self.snapshot(directory) == before)
    }

    /// The same outputs beside the store are fine.
    @Test func outputsBesideTheStoreAreWritten() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("g2.sqlite").path
        #expect(await ChainPlan.run(arguments: ["fixture", Self.grocery, "--model-version", "Model 2", "--rows", "5", "-o", store]) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let sql = directory.appendingPathComponent("g2.sqlite.sql").path
        let out = directory.appendingPathComponent("g2.txt").path
        #expect(await ChainPlan.run(arguments: ["dry-run", Self.grocery, "--store", store, "--sql-log", sql, "-o", out]) == 0)
        #expect(FileManager.default.fileExists(atPath: sql) && FileManager.default.fileExists(atPath: out))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func progressBarLine() {
        #expect(ProgressBar.line(phase: .copy, fraction: 0.25) == "[#####...............] copying the store, 25%")
        #expect(ProgressBar.line(phase: .read, fraction: 1) == "[####################] reading the copy, 100%")
        #expect(ProgressBar.line(phase: .simulate(step: 2, of: 2), fraction: 0.5) == "[###############.....] step 2 of 2, 75%")
        #expect(ProgressBar.line(step: 1, of: 2, fraction: 0) == "[....................] step 1 of 2, 0%")
        #expect(ProgressBar.line(step: 2, of: 2, fraction: 0.5) == "[###############.....] step 2 of 2, 75%")
        #expect(ProgressBar.line(step: 2, of: 2, fraction: 1) == "[####################] step 2 of 2, 100%")
    }

    /// Not on a terminal (tests, pipes), nothing is drawn.
    @Test func progressBarIsSilentOffATerminal() {
        let bar = ProgressBar(enabled: false)
        bar.update(step: 1, of: 1, fraction: 0.5)
        bar.finish()
    }

    @Test(arguments: [["--memory-limit", "0"], ["--lock-timeout", "-1"]])
    func badOptionsAreUsage(_ options: [String]) async {
        #expect(await ChainPlan.run(arguments: ["dry-run", Self.grocery, "--store", "x.sqlite"] + options) == 2)
    }
}

/// Ctrl-C, SIGTERM, SIGHUP (terminal closed) and SIGQUIT in the middle of a dry run, on a
/// rollback-journal store and on a WAL store with its -wal and -shm: the process exits 128 + the
/// signal, its scratch copy is gone and the store's files are byte-identical. Runs the built
/// `chainplan` as a child process (signals cannot be tested in-process).
@Suite("dry-run interrupted", .serialized)
struct DryRunSignalTests {
    static let binary = CLITests.root.appendingPathComponent(".build/debug/chainplan")

    static let signals: [(Int32, Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)]

    /// A large store for `mode` ("rollback" or "wal") at `store`; a WAL store comes with -wal and
    /// -shm that hold committed changes (the writer ended without a checkpoint).
    static func makeStore(_ mode: String, at store: URL) async throws {
        #expect(await ChainPlan.run(arguments: ["fixture", DryRunCommandTests.grocery, "--model-version", "Model", "--rows", "150000", "-o", store.path]) == 0)
        guard mode == "wal" else { return }
        try DryRunCommandTests.python("""
            import os, sqlite3, sys
            c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')
            c.execute('UPDATE ZITEM SET Z_OPT = Z_OPT + 1 WHERE Z_PK <= 1000'); c.commit()
            os._exit(0)
            """, [store.path])
    }

    @Test(arguments: ["rollback", "wal"], signals)
    func interruptedDryRunLeavesNothing(_ mode: String, _ signal: (Int32, Int32)) async throws {
        let (signalNumber, expected) = signal
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build chainplan first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-signal-\(UUID().uuidString)")
        let scratch = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("big.sqlite")
        try await Self.makeStore(mode, at: store)
        let files = ["", "-wal", "-shm", "-journal"].map { store.path + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }
        if mode == "wal" { #expect(before[1] != nil && before[2] != nil) }
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

        // A Python launcher starts the dry run, waits for its scratch copy to appear, lets it work
        // a little, and sends the signal (Foundation's Process is unreliable about liveness under
        // a loaded test run).
        let script = """
            import json, os, subprocess, sys, time
            scratch, number = sys.argv[1], int(sys.argv[2])
            child = subprocess.Popen(sys.argv[3:], env=dict(os.environ, TMPDIR=scratch), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            while not os.listdir(scratch) and child.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(0.3)
            running = child.poll() is None
            child.send_signal(number)
            print(json.dumps({"interrupted": running, "status": child.wait()}))
            """
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        launcher.arguments = ["python3", "-c", script, scratch.path, String(signalNumber), Self.binary.path,
                              "dry-run", DryRunCommandTests.grocery, "--store", store.path, "-o", directory.appendingPathComponent("out.txt").path]
        let output = Pipe()
        launcher.standardOutput = output
        try launcher.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        launcher.waitUntilExit()
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(result["interrupted"] as? Bool == true, "the dry run ended before the signal: the store is too small")
        #expect(result["status"] as? Int == Int(expected))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().filter { $0 != "out.txt" } == listing)
    }
}
