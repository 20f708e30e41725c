import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import ChainPlanStore
import Foundation

/// `chainplan dry-run`: what happens to this store on this build.
struct DryRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dry-run",
        abstract: "Identify a store's model version and show what migrating it would do.",
        discussion: """
            The store is never opened in place: it is copied (with its -wal, -shm and support \
            folder) into a private scratch directory, read there, and the copy is removed. Its \
            version is identified by the compiled model's hashes (--momd), by version identifiers, \
            or by structure; then the path from that version is listed with each step's \
            classification, the tables and rows it touches, and for heavyweight steps an estimate \
            of the memory the migration needs (CP303 above --memory-limit).

            Then each step is simulated on the copy: the SQL of Core Data's in-place migration \
            (columns added, tables rebuilt and copied, Z_PRIMARYKEY rewritten, indexes rebuilt) is \
            run and timed, and the data is checked against the destination model: NULLs in \
            attributes that become non-optional, duplicates under a new uniqueness constraint, \
            values outside a new min/max, empty to-one relationships that become required (CP304, \
            with counts; values only with --show-values). Ctrl-C removes the copy.

            Examples:
              chainplan dry-run --store ~/Library/.../App.sqlite
              chainplan dry-run chain.json --store user.sqlite --momd App.momd --format json
              chainplan dry-run --store user.sqlite --sql-log migration.sql
            """
    )

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The Core Data SQLite store.", valueName: "path"))
    var store: String

    @Option(help: ArgumentHelp("The compiled model (X.momd) whose VersionInfo.plist identifies the store by hashes.", valueName: "path"))
    var momd: String?

    @OptionGroup var memory: MemoryBudgetOptions

    @Option(name: .customLong("lock-timeout"), help: ArgumentHelp("Wait this long for another process's write lock.", valueName: "seconds"))
    var lockTimeout: Double = 5

    @Flag(name: .customLong("simulate"), inversion: .prefixedNo,
          help: "Apply each step's schema changes to the scratch copy and check the data against the destination (CP304).")
    var simulate = true

    @Flag(name: .customLong("show-values"), help: "Put up to three offending values in CP304 findings (stores hold personal data).")
    var showValues = false

    @Option(name: .customLong("sql-log"), help: ArgumentHelp("Write every SQL statement the simulation runs to this file.", valueName: "path"))
    var sqlLog: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard lockTimeout >= 0, lockTimeout <= 86_400 else { throw ValidationError("--lock-timeout takes 0 to 86400 seconds") }
    }

    func run() async throws {
        var options = DryRunOptions()
        options.memoryLimitBytes = memory.bytes
        options.lockTimeout = lockTimeout
        options.momd = momd
        options.simulate = simulate
        options.showValues = showValues
        // Every path this run writes, checked before anything is created: none may be the store,
        // its side files or inside its support folder.
        let destinations = try output.destinations()
        try checkOutputs(destinations.compactMap(\.path) + (sqlLog.map { [$0] } ?? [])
            + (destinations.contains { $0.format == .github } ? [CLIEnvironment.value("GITHUB_STEP_SUMMARY")].compactMap { $0 }.filter { !$0.isEmpty } : []))
        if let sqlLog {
            guard FileManager.default.createFile(atPath: sqlLog, contents: nil), let handle = FileHandle(forWritingAtPath: sqlLog) else {
                throw UsageError("cannot write the SQL log '\(sqlLog)'")
            }
            let log = FileHandleOutput(handle: handle)
            options.sqlLog = { log.write($0 + "\n") }
        }
        let bar = ProgressBar()
        options.phaseProgress = { bar.update(phase: $0, fraction: $1) }
        ScratchCleanup.install()
        let planned = ChainPlanner(options: input.planOptions()).dryRun(inputAt: try input.resolveSpec(), storeAt: store, options: options,
                                                                       configuration: input.configURL)
        bar.finish()
        var (report, view) = (planned, ReportView.diagnostics)
        if let (scoped, leftOut) = StoreScope.scoped(planned.plan) {
            let unreported = leftOut == 0 ? "the chain is not reported (chainplan validate reports it)"
                : "the chain and \(leftOut) finding\(leftOut == 1 ? "" : "s") about it are not reported (chainplan validate reports them)"
            FileHandleOutput.standardError.write("chainplan: the store cannot be used; \(unreported)\n")
            (report.plan, view) = (scoped, .findings)
        }
        try output.emit(report, view: view)
        try ExitStatus.finish(report.plan.diagnostics, strict: output.strict)
    }

    /// Refuses (usage error, nothing written) an output that resolves to the store's files.
    func checkOutputs(_ paths: [String]) throws {
        // Nothing written to a file (output on stdout): nothing to check, and no need to walk
        // the store's support folder.
        guard !paths.isEmpty else { return }
        let guarded = StoreFileGuard(storePath: store)
        for path in paths {
            if let conflict = guarded.conflict(withOutput: path) {
                throw UsageError("refusing to write '\(path)': it \(conflict) (store '\(store)'); a dry run never writes to the store")
            }
        }
    }
}

/// `chainplan fixture`: a store in Core Data's SQLite layout, for tests, demos and benchmarks.
struct FixtureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture",
        abstract: "Write a Core Data SQLite store for a model version, with synthetic rows.",
        discussion: """
            The store has Core Data's tables (Z_PRIMARYKEY, Z_METADATA with a binary plist, one \
            table per entity hierarchy, join tables) and N rows per entity with plausible values.

            Example:
              chainplan fixture Chains/grocery-dude/chain.json --model-version "Model 2" --rows 1000 -o store.sqlite
            """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The model version to write the store for.", valueName: "name"))
    var modelVersion: String?

    /// The original spelling, kept working but hidden: in help it sat next to the global
    /// `--version` flag. (ArgumentParser lists every name of an option, so an alias cannot be
    /// hidden on its own; a second, hidden option is the way.)
    @Option(name: .customLong("version"), help: .hidden)
    var legacyVersion: String?

    /// The version to write, from either spelling.
    var version: String { modelVersion ?? legacyVersion ?? "" }

    @Option(help: "Rows per entity.")
    var rows: Int = 100

    @Option(name: [.customShort("o"), .long], help: "The store to write (must not exist).")
    var output: String

    @OptionGroup var color: ColorOptions
    @OptionGroup var result: WrittenFileOptions

    func validate() throws {
        guard (modelVersion == nil) != (legacyVersion == nil) else {
            throw ValidationError(modelVersion == nil ? "Missing expected argument '--model-version <name>'" : "give --model-version once (--version is its old spelling)")
        }
        guard rows >= 0, rows <= 100_000_000 else { throw ValidationError("--rows takes 0 to 100000000") }
    }

    func run() async throws {
        guard !FileManager.default.fileExists(atPath: output) else { throw UsageError("'\(output)' exists; remove it or choose another path") }
        let spec = try input.resolveSpec()
        guard let bundle = ChainPlanner(options: try input.configuredPlanOptions(for: spec)).bundle(inputAt: spec) else {
            throw UsageError("the spec names no readable model bundle")
        }
        guard let model = bundle.version(named: version)?.model else {
            throw UsageError(VersionHint.notInBundle(version, versions: bundle.versionNames))
        }
        do {
            let summary = try StoreFixtureWriter(rowsPerEntity: rows).write(model: model, versionName: version, to: output)
            result.wrote(output, command: "fixture", line: "wrote \(output): version '\(version)', \(NumberText.grouped(summary.totalEntityRows)) rows in "
                + "\(summary.rowsPerEntity.count) entities, \(NumberText.grouped(summary.bytes)) bytes",
                         details: ["version": version, "rows": summary.totalEntityRows, "entities": summary.rowsPerEntity.count, "bytes": summary.bytes])
        } catch {
            throw UsageError("cannot write the store: \(error)")
        }
    }
}
