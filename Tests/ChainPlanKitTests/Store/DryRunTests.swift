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

@Suite struct DryRunTests {
    static let checks = TestPaths.fixtures.appendingPathComponent("Store/Checks/chain.json")
    /// Checks with one change Core Data refuses to infer (Pet.name String → Integer 64): a heavyweight step.
    static let heavy = TestPaths.fixtures.appendingPathComponent("Store/Heavy/chain.json")
    static let grocery = TestPaths.chains.appendingPathComponent("grocery-dude/chain.json")

    static func planner() -> ChainPlanner {
        var options = PlanOptions()
        options.baseDirectory = TestPaths.packageRoot
        return ChainPlanner(options: options)
    }

    /// A planner that lets a spec name a bundle outside its folder (`chain(_:of:in:)`).
    static func plannerAllowingOutside() -> ChainPlanner {
        var options = PlanOptions()
        options.baseDirectory = TestPaths.packageRoot
        options.allowOutsideSpecDirectory = true
        return ChainPlanner(options: options)
    }

    /// A spec in `folder` chaining `versions` of `bundle`: CoreDataPlus's bundles name their
    /// oldest version current, so the bundle alone is a one-version chain.
    static func chain(_ versions: [String], of bundle: URL, in folder: TemporaryFolder) throws -> URL {
        let spec = folder.url.appendingPathComponent("chain.json")
        let list = versions.map { "\"\($0)\"" }.joined(separator: ", ")
        try Data("{\"chain\": [\(list)], \"model\": \"\(bundle.path)\"}".utf8).write(to: spec)
        return spec
    }

    /// A fixture store for `version` of the spec, in a temporary folder kept alive by the caller.
    static func fixture(_ spec: URL, _ version: String, rows: Int, in folder: TemporaryFolder, sql: [String] = []) throws -> String {
        let path = folder.url.appendingPathComponent("\(version).sqlite").path
        let bundle = try #require(planner().bundle(inputAt: spec))
        let model = try #require(bundle.version(named: version)?.model)
        _ = try StoreFixtureWriter(rowsPerEntity: rows).write(model: model, versionName: version, to: path)
        if !sql.isEmpty {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in for statement in sql { try db.execute(sql: statement) } }
            try queue.close()
        }
        return path
    }

    // MARK: - Corpus

    // MARK: - The simulation reaches the destination

    /// The SQL the simulation runs turns a store of each start version into one whose structure
    /// is the target's, with every row kept.
    @Test(arguments: ["Model", "Model 2", "Model 3"])
    func simulatedStoreHasTheTargetsStructure(_ start: String) throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.grocery, start, rows: 50, in: folder)
        let log = StatementLog()
        var options = DryRunOptions()
        options.sqlLog = { log.append($0) }
        let report = Self.planner().dryRun(inputAt: Self.grocery, storeAt: path, options: options)
        #expect(report.store?.detectedVersion == start)
        #expect(!log.statements.isEmpty)

        // The original is untouched; applying the logged SQL to it (as a test would) migrates it.
        let queue = try DatabaseQueue(path: path)
        let itemsBefore = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") }
        try queue.writeWithoutTransaction { db in try db.execute(sql: log.statements.joined(separator: "\n")) }
        #expect(log.statements.filter { $0 == "BEGIN;" }.count == report.store?.steps.count)
        let itemsAfter = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") }
        try queue.close()
        #expect(itemsBefore == itemsAfter)

        let bundle = try #require(Self.planner().bundle(inputAt: Self.grocery))
        let metadata = try StoreReader().read(storeAt: path)
        let identified = StoreIdentifier.identify(metadata: metadata, versions: bundle.versions)
        #expect(identified.candidates.first?.version == "Model 4")
        #expect(identified.candidates.first?.score == 1)
    }

    /// Step by step, the kind of work matches the change: added attributes are columns added in
    /// place; a new entity that shifts entity numbers renumbers rows; a removed entity drops its table.
    @Test func operationsOfEachStep() throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.grocery, "Model", rows: 10, in: folder)
        let report = Self.planner().dryRun(inputAt: Self.grocery, storeAt: path, options: DryRunOptions())
        let steps = try #require(report.store?.steps)
        #expect(steps.map { "\($0.from)→\($0.to)" } == ["Model→Model 2", "Model 2→Model 3", "Model 3→Model 4"])
        func kinds(_ index: Int) -> [String] { (steps[index].simulation?.operations ?? []).map { "\($0.table) \($0.kind)" } }
        #expect(kinds(0) == ["ZITEM columns added", "ZITEM values filled"])
        #expect(steps[0].simulation?.operations.first?.detail == ["ZFAVOURITE", "ZBRAND"])
        #expect(kinds(1).contains("ZAMOUNT table created"))
        #expect(kinds(1).contains("ZITEM rows renumbered"))
        #expect(kinds(2).contains("ZAMOUNT table dropped"))
        #expect(kinds(2).contains("ZUNIT table created"))
    }

    // MARK: - Renamed entities and row accounting

    static let sampleModel = "\(StoreCorpus.coreDataPlus)/SampleModel"

    struct StrayCase: Sendable, CustomTestStringConvertible {
        var name: String
        var version: String
        var plant: String
        var expected: String
        var next: String?
        var testDescription: String { name }
    }

    /// Rows that no entity of the source version owns would vanish in a rebuild (or lose their
    /// Z_ENT in place): the row count does not add up, and a CP300 warning says so.
    static let strayCases: [StrayCase] = [
        StrayCase(name: "rebuilt table", version: "Model 3", plant: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT) VALUES (100000, 99, 1)",
                  expected: "the simulation of 'Model 3' → 'Model 4' on store 'Model 3.sqlite' accounts for 10 of the 11 rows of table ZITEM: "
                      + "1 row (Z_ENT 99) belongs to no entity of 'Model 3' that the store names; the simulated result is incomplete"),
        StrayCase(name: "table renumbered in place", version: "Model 2", plant: "INSERT INTO ZLOCATION (Z_PK, Z_ENT, Z_OPT) VALUES (100000, 77, 1)",
                  expected: "the simulation of 'Model 2' → 'Model 3' on store 'Model 2.sqlite' accounts for 20 of the 21 rows of table ZLOCATION: "
                      + "1 row (Z_ENT 77) belongs to no entity of 'Model 2' that the store names; the simulated result is incomplete",
                  // Renumbered in place, the row is left with no Z_ENT, and the next step says so too.
                  next: "the simulation of 'Model 3' → 'Model 4' on store 'Model 2.sqlite' accounts for 20 of the 21 rows of table ZLOCATION: "
                      + "1 row (Z_ENT NULL) belongs to no entity of 'Model 3' that the store names; the simulated result is incomplete"),
    ]

    @Test(arguments: strayCases)
    func rowsThatDoNotAddUpAreReported(_ item: StrayCase) throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.grocery, item.version, rows: 10, in: folder, sql: [item.plant])
        var planOptions = PlanOptions()
        planOptions.baseDirectory = folder.url
        let report = ChainPlanner(options: planOptions).dryRun(inputAt: Self.grocery, storeAt: path, options: DryRunOptions())
        let warnings = report.plan.diagnostics.filter { $0.code == .unreadableStore }
        #expect(warnings.map(\.message) == [item.expected] + (item.next.map { [$0] } ?? []))
        #expect(warnings.allSatisfy { $0.severity == .warning })
    }

    // MARK: - Data checks (CP304)

    struct CheckCase: Sendable, CustomTestStringConvertible {
        var name: String
        /// SQL run on a clean V1 fixture (every rule satisfied) to plant the violations.
        var plant: [String]
        /// Expected CP304 messages (after the "'V1' → 'V2': " prefix).
        var expected: [String]
        /// Error when the migration itself fails; warning for range, length and pattern
        /// violations, which an in-place migration does not check (§5): they fail at the next save.
        var severity: Severity = .error
        var testDescription: String { name }
    }

    static let nextSave = "; an in-place migration checks only mandatory values, so they migrate and fail validation at the next save that touches them"

    /// Makes every row satisfy V2: names short and present, unique emails, ages in range, owners set.
    static let clean = [
        "UPDATE ZPERSON SET ZNAME = 'n' || Z_PK, ZEMAIL = 'e' || Z_PK, ZAGE = 30",
        "UPDATE ZPET SET ZOWNER = 1",
    ]

    static let checkCases: [CheckCase] = [
        CheckCase(name: "clean data", plant: [], expected: []),
        CheckCase(name: "NULL in an attribute that becomes non-optional", plant: ["UPDATE ZPERSON SET ZNAME = NULL WHERE Z_PK <= 3"],
                  expected: ["3 rows of 'Person' have no 'name', which becomes non-optional without a default value"]),
        CheckCase(name: "NULL filled by the default value", plant: ["UPDATE ZPERSON SET ZNICKNAME = NULL"], expected: []),
        CheckCase(name: "duplicates under a new uniqueness constraint", plant: ["UPDATE ZPERSON SET ZEMAIL = 'same' WHERE Z_PK <= 4"],
                  expected: ["3 rows of 'Person' duplicate another's ('email') under the new uniqueness constraint; its unique index cannot be built"]),
        CheckCase(name: "NULLs are not duplicates", plant: ["UPDATE ZPERSON SET ZEMAIL = NULL WHERE Z_PK <= 4"], expected: []),
        CheckCase(name: "numbers outside a new range", plant: ["UPDATE ZPERSON SET ZAGE = -1 WHERE Z_PK = 1", "UPDATE ZPERSON SET ZAGE = 151 WHERE Z_PK = 2"],
                  expected: ["2 rows of 'Person' have 'age' outside the new range 0…150" + nextSave], severity: .warning),
        CheckCase(name: "the range's ends are inside", plant: ["UPDATE ZPERSON SET ZAGE = 0 WHERE Z_PK = 1", "UPDATE ZPERSON SET ZAGE = 150 WHERE Z_PK = 2"],
                  expected: []),
        CheckCase(name: "strings longer than a new maximum length", plant: ["UPDATE ZPERSON SET ZNAME = 'a name far too long for it' WHERE Z_PK = 5"],
                  expected: ["1 row of 'Person' has a length of 'name' over the new maximum 20" + nextSave], severity: .warning),
        CheckCase(name: "empty to-one that becomes required", plant: ["UPDATE ZPET SET ZOWNER = NULL WHERE Z_PK IN (1, 2)"],
                  expected: ["2 rows of 'Pet' have no 'owner', a to-one relationship that becomes required"]),
    ]

    @Test(arguments: checkCases)
    func dataCheck(_ item: CheckCase) throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.checks, "V1", rows: 20, in: folder, sql: Self.clean + item.plant)
        let report = Self.planner().dryRun(inputAt: Self.checks, storeAt: path, options: DryRunOptions())
        #expect(report.store?.detectedVersion == "V1")
        let found = report.plan.diagnostics.filter { $0.code == .dataViolatesDestination }
        #expect(found.map(\.message) == item.expected.map { "'V1' → 'V2': " + $0 })
        #expect(found.allSatisfy { $0.versions == ["V1", "V2"] && $0.severity == item.severity })
        // Never a value without --show-values.
        #expect(!found.contains { $0.message.contains("e.g.") })
    }

    /// With `showValues`, up to three offending values are named; without, none.
    @Test func valuesOnlyWhenAsked() throws {
        let folder = try TemporaryFolder()
        let plant = ["UPDATE ZPERSON SET ZEMAIL = 'private@example.com' WHERE Z_PK <= 2", "UPDATE ZPERSON SET ZAGE = 999 WHERE Z_PK <= 5"]
        let path = try Self.fixture(Self.checks, "V1", rows: 20, in: folder, sql: Self.clean + plant)
        var options = DryRunOptions()
        options.showValues = true
        let shown = Self.planner().dryRun(inputAt: Self.checks, storeAt: path, options: options).plan.diagnostics.filter { $0.code == .dataViolatesDestination }
        #expect(shown.map(\.message).contains { $0.hasSuffix("(e.g. 'private@example.com')") })
        #expect(shown.map(\.message).contains { $0.contains("outside the new range 0…150 (e.g. 999, 999, 999); ") })
        let hidden = Self.planner().dryRun(inputAt: Self.checks, storeAt: path, options: DryRunOptions()).plan.diagnostics
        #expect(!hidden.map(\.message).contains { $0.contains("private@example.com") || $0.contains("999") })
    }

    /// Duplicates keep the unique index from being built; the simulation goes on without it.
    @Test func refusedUniqueIndexIsNotBuilt() throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.checks, "V1", rows: 10, in: folder, sql: Self.clean + ["UPDATE ZPERSON SET ZEMAIL = 'same'"])
        let log = StatementLog()
        var options = DryRunOptions()
        options.sqlLog = { log.append($0) }
        let report = Self.planner().dryRun(inputAt: Self.checks, storeAt: path, options: options)
        #expect(!report.plan.diagnostics.contains { $0.code == .unreadableStore })
        #expect(!log.statements.contains { $0.contains("Z_Person_UNIQUE_email") })
        let cleanFolder = try TemporaryFolder()
        let clean = try Self.fixture(Self.checks, "V1", rows: 10, in: cleanFolder, sql: Self.clean)
        let cleanLog = StatementLog()
        options.sqlLog = { cleanLog.append($0) }
        _ = Self.planner().dryRun(inputAt: Self.checks, storeAt: clean, options: options)
        #expect(cleanLog.statements.contains { $0.hasPrefix("CREATE UNIQUE INDEX \"Z_Person_UNIQUE_email\"") })
    }

    // MARK: - Memory estimate (CP303)

    @Test(arguments: [(1, true), (1024, false)])
    func heavyweightMemoryLimit(_ megabytes: Int, _ expected: Bool) throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.heavy, "V1", rows: 30_000, in: folder, sql: Self.clean)
        var options = DryRunOptions()
        options.memoryLimitBytes = megabytes << 20
        options.simulate = false
        let report = Self.planner().dryRun(inputAt: Self.heavy, storeAt: path, options: options)
        let step = try #require(report.store?.steps.first)
        #expect(step.work == "load and re-insert")
        #expect((step.estimatedMemoryBytes ?? 0) > 1 << 20)
        #expect(step.simulation == nil)
        #expect(report.plan.diagnostics.contains { $0.code == .heavyweightMemory } == expected)
    }

    /// `heavyweight-memory-mb` in the configuration sets the threshold; an explicit limit (as from
    /// `--memory-limit`) overrides it.
    @Test(arguments: [(1, nil, true), (1024, nil, false), (1, 1024, false), (1024, 1, true)] as [(Int, Int?, Bool)])
    func configuredMemoryThreshold(_ configured: Int, _ commandLine: Int?, _ expected: Bool) throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.heavy, "V1", rows: 30_000, in: folder, sql: Self.clean)
        let configuration = folder.url.appendingPathComponent("config.yml")
        try Data("thresholds:\n  heavyweight-memory-mb: \(configured)\n".utf8).write(to: configuration)
        var options = DryRunOptions()
        options.memoryLimitBytes = commandLine.map { $0 << 20 }
        options.simulate = false
        let report = Self.planner().dryRun(inputAt: Self.heavy, storeAt: path, options: options, configuration: configuration)
        #expect(report.store?.steps.first?.work == "load and re-insert")
        #expect(report.plan.diagnostics.contains { $0.code == .heavyweightMemory } == expected, "\(report.plan.diagnostics)")
        let limit = commandLine ?? configured
        #expect(report.plan.diagnostics.first { $0.code == .heavyweightMemory }.map { $0.message.contains("over the \(ByteSize.describe(limit << 20)) limit") } ?? true)
    }

    /// A dry run follows the configuration's severities too, and stops on an unusable one.
    @Test func dryRunFollowsTheConfiguration() throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.heavy, "V1", rows: 30_000, in: folder, sql: Self.clean)
        var options = DryRunOptions()
        options.memoryLimitBytes = 1 << 20
        options.simulate = false
        let configuration = folder.url.appendingPathComponent("config.yml")
        try Data("rules:\n  CP303: error\n".utf8).write(to: configuration)
        let strict = Self.planner().dryRun(inputAt: Self.heavy, storeAt: path, options: options, configuration: configuration)
        #expect(strict.plan.diagnostics.first { $0.code == .heavyweightMemory }?.severity == .error)
        try Data("thresholds:\n  heavyweight-memory-mb: 0\n".utf8).write(to: configuration)
        let broken = Self.planner().dryRun(inputAt: Self.heavy, storeAt: path, options: options, configuration: configuration)
        #expect(broken.plan.diagnostics.map(\.code) == [.invalidConfiguration])
        #expect(broken.store == nil)
    }

    @Test func memoryModel() {
        #expect(HeavyweightMemory.estimate(rows: 0, averageRowBytes: 40) == 0)
        #expect(HeavyweightMemory.estimate(rows: 100, averageRowBytes: 31) == 100 * 2 * (31 + HeavyweightMemory.perObjectOverheadBytes))
        #expect(HeavyweightMemory.estimate(rows: 1, averageRowBytes: 0) == 2 * (1 + HeavyweightMemory.perObjectOverheadBytes))
    }

    @Test(arguments: [(0, "0 bytes"), (1, "1 byte"), (1023, "1023 bytes"), (1024, "1.0 KB"), (3_560, "3.5 KB"), (3_600, "3.6 KB"),
                      (42 * 1024, "42 KB"), ((1 << 20) - 1, "1024 KB"), (1 << 20, "1.0 MB"), (1_300_000, "1.3 MB"), (310 << 20, "310 MB"),
                      (3 << 30, "3.0 GB")])
    func byteSizes(_ bytes: Int, _ expected: String) {
        #expect(ByteSize.describe(bytes) == expected)
    }

    // MARK: - Progress

    /// The copy and the read report progress too, before the simulation's steps.
    @Test func progressCoversCopyReadAndSimulation() throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.grocery, "Model", rows: 10, in: folder)
        let log = StatementLog()
        var options = DryRunOptions()
        options.phaseProgress = { phase, fraction in
            switch phase {
            case .copy: log.append("copy \(fraction)")
            case .read: log.append("read \(fraction)")
            case .simulate(let step, let steps): log.append("\(step)/\(steps) \(fraction)")
            }
        }
        _ = Self.planner().dryRun(inputAt: Self.grocery, storeAt: path, options: options)
        let phases = log.statements.map { $0.split(separator: " ")[0] }
        #expect(phases.first == "copy")
        #expect(log.statements.contains("copy 1.0") && log.statements.contains("read 1.0") && log.statements.last == "3/3 1.0")
        // In order: every copy report before every read report before the simulation.
        let order = phases.map { $0 == "copy" ? 0 : $0 == "read" ? 1 : 2 }
        #expect(order == order.sorted())
    }

    @Test func progressReachesTheEndOfEveryStep() throws {
        let folder = try TemporaryFolder()
        let path = try Self.fixture(Self.grocery, "Model", rows: 10, in: folder)
        let log = StatementLog()
        var options = DryRunOptions()
        options.progress = { step, steps, fraction in log.append("\(step)/\(steps) \(fraction)") }
        _ = Self.planner().dryRun(inputAt: Self.grocery, storeAt: path, options: options)
        #expect(log.statements.first == "1/3 0.0")
        #expect(log.statements.last == "3/3 1.0")
        #expect(log.statements.contains("2/3 1.0"))
    }
}

/// Collects strings from `@Sendable` callbacks.
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var statements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

extension CorpusTests {
    /// The tests of `DryRunTests` that read `../shared`.
    @Suite struct DryRunCorpusTests {
        /// Every corpus store: its version is identified (or reported unknown), its path is
        /// simulated without a SQLite error, and its folder is byte-identical afterwards.
        @Test(arguments: StoreCorpus.cases)
        func corpusStore(_ item: StoreCorpus.Case) throws {
            let store = StoreCorpus.url(item.store)
            let folder = store.deletingLastPathComponent()
            let before = try FileSnapshot.of(folder: folder)
            var options = DryRunOptions()
            options.momd = item.momd.map { StoreCorpus.url($0).path }
            let report = DryRunTests.planner().dryRun(inputAt: StoreCorpus.url(item.bundle), storeAt: store.path, options: options)
            let summary = try #require(report.store)
            #expect(summary.detectedVersion == item.version)
            if item.version == nil {
                #expect(report.plan.diagnostics.contains { $0.code == .unknownStoreVersion })
                #expect(report.plan.paths.isEmpty)
            } else {
                #expect(report.plan.paths.map(\.start) == [item.version])
                #expect(!report.plan.diagnostics.contains { $0.code == .unreadableStore }, "\(report.plan.diagnostics.filter { $0.code == .unreadableStore })")
                let simulated = summary.steps.filter { $0.migration != MigrationKind.none }
                #expect(simulated.allSatisfy { $0.simulation != nil })
            }
            #expect(try FileSnapshot.of(folder: folder) == before)
            #expect(StoreScratchCopy.liveDirectories.isEmpty || !StoreScratchCopy.liveDirectories.contains { $0.contains(item.description) })
        }

        /// CoreDataPlus's `SampleModel_V2.sqlite` still names entity 3 `ExpensiveSportCar` in
        /// Z_PRIMARYKEY; the model calls it `LuxuryCar` (renaming identifier). Its 5 rows are
        /// copied with the rest of ZCAR, and the step's tables sum per table.
        @Test func renamedEntityRowsAreCopiedFromTheCorpusStore() throws {
            let folder = try TemporaryFolder()
            let store = try folder.copy(StoreCorpus.url("\(DryRunTests.sampleModel)/Fixtures/SampleModel_V2.sqlite"), as: "g2.sqlite")
            let spec = try DryRunTests.chain(["SampleModel", "SampleModel2", "SampleModel3"],
                                             of: StoreCorpus.url("\(DryRunTests.sampleModel)/SampleModel.xcdatamodeld"), in: folder)
            let report = DryRunTests.plannerAllowingOutside().dryRun(inputAt: spec, storeAt: store.path, options: DryRunOptions())
            #expect(report.store?.detectedVersion == "SampleModel2")
            #expect(!report.plan.diagnostics.contains { $0.code == .unreadableStore }, "\(report.plan.diagnostics.filter { $0.code == .unreadableStore }.map(\.message))")
            let step = try #require(report.store?.steps.first { $0.to == "SampleModel3" })
            let rebuilt = step.simulation?.operations.first { $0.table == "ZCAR" && $0.kind == "table rebuilt and copied" }
            #expect(rebuilt?.rows == 125)
            #expect(step.tables.map(\.name) == ["ZCAR", "ZPERSON"])
            let car = try #require(step.tables.first { $0.name == "ZCAR" })
            #expect(car.rows == 125)
            #expect(car.entities.map(\.name).sorted() == ["Car", "LuxuryCar", "SportCar"])
            #expect(report.entities?.first { $0.name == "LuxuryCar" }?.rows == 5)
        }

        /// The same on a generated store whose Z_PRIMARYKEY keeps the old name.
        @Test func renamedEntityRowsAreCopiedFromAFixture() throws {
            let folder = try TemporaryFolder()
            let bundle = StoreCorpus.url("\(DryRunTests.sampleModel)/SampleModel.xcdatamodeld")
            let path = try DryRunTests.fixture(bundle, "SampleModel2", rows: 7, in: folder,
                                        sql: ["UPDATE Z_PRIMARYKEY SET Z_NAME = 'ExpensiveSportCar' WHERE Z_NAME = 'LuxuryCar'"])
            let queue = try DatabaseQueue(path: path)
            let cars = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZCAR") }
            try queue.close()
            let spec = try DryRunTests.chain(["SampleModel", "SampleModel2", "SampleModel3"], of: bundle, in: folder)
            let report = DryRunTests.plannerAllowingOutside().dryRun(inputAt: spec, storeAt: path, options: DryRunOptions())
            #expect(report.store?.detectedVersion == "SampleModel2")
            #expect(!report.plan.diagnostics.contains { $0.code == .unreadableStore }, "\(report.plan.diagnostics.filter { $0.code == .unreadableStore }.map(\.message))")
            let step = try #require(report.store?.steps.first { $0.to == "SampleModel3" })
            #expect(step.simulation?.operations.first { $0.table == "ZCAR" && $0.kind == "table rebuilt and copied" }?.rows == cars)
            #expect(step.tables.first { $0.name == "ZCAR" }?.rows == cars)
        }
    }
}
