import Foundation
import GRDB
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Deferred lightweight migration in generated code and on the command line (reference §7.3):
/// `stage --format swift --deferred` sets the option and adds the finish routine (metadata key,
/// then the schema: a stale key counts as done; a background processing task; errors reported,
/// nothing deleted), type-checked against the Core Data, BackgroundTasks and SQLite3 stubs;
/// `inspect --store` exits 2 on deferred columns that do not match the store's version.
struct DeferredCodeTests {
    @Test(arguments: ["aircraft-staged", "notas"])
    func stagedSwiftWithDeferral(_ chain: String) throws {
        let plan = try StageCodeTests.plan(chain)
        let source = try #require(StagePlanSwift.render(plan, deferred: true))
        #expect(try Golden.check(Data(source.utf8), against: "Golden/stages/\(chain).deferred.swift.txt"))
        for required in ["description.setOption(NSNumber(value: true), forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey)",
                         "finishDeferredLightweightMigrationTask()", "BGProcessingTask", "BGProcessingTaskRequest", "case staleKey",
                         "instr(sql, '_DEFERRED_')", "SQLITE_OPEN_READONLY"] {
            #expect(source.contains(required), "\(required)")
        }
        // Nothing in the finish routine deletes a store or a file.
        for forbidden in ["removeItem", "destroyPersistentStore", "unlink", "DROP "] {
            #expect(!source.contains(forbidden), "\(forbidden)")
        }
        let problems = try StageCodeTests.typecheck(source, name: "Deferred_\(chain.replacingOccurrences(of: "-", with: "_"))")
        #expect(problems == nil, "\(problems ?? "")")
        // Without deferral the code is what it was.
        #expect(StagePlanSwift.render(plan) == StagePlanSwift.render(plan, deferred: false))
        #expect(StagePlanSwift.render(plan)?.contains("Deferred") == false)
    }

    @Test func stageCommandTakesDeferred() async throws {
        let spec = CLITests.root.appendingPathComponent("Chains/aircraft-staged/chain.json").path
        let swift = await OutputCapture.run(["stage", spec, "--format", "swift", "--deferred"])
        #expect(swift.status == 0, "\(swift.error)")
        #expect(swift.output.contains("NSPersistentStoreDeferredLightweightMigrationOptionKey"))
        let coreStore = await OutputCapture.run(["stage", spec, "--format", "corestore", "--deferred"])
        #expect(coreStore.status == 2)
    }

    @Test func inspectStoreExitStatus() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-deferred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = try Self.chain(in: folder)
        let bundle = folder.appendingPathComponent("M.xcdatamodeld").path
        func store(_ name: String, _ sql: [String]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            let model = try #require(ChainPlanner().bundle(inputAt: spec)?.version(named: "V2")?.model)
            var writer = StoreFixtureWriter(rowsPerEntity: 2)
            writer.deferredMigrationKey = true
            _ = try writer.write(model: model, versionName: "V2", to: path)
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in for statement in sql { try db.execute(sql: statement) } }
            try queue.close()
            return path
        }
        let good = try store("good.sqlite", [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_0123456789ABCDEF0123456789ABCDEF__ZBODY" VARCHAR"#])
        let bad = try store("bad.sqlite", [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_oops" VARCHAR"#])
        let ok = await OutputCapture.run(["inspect", "--store", good, bundle, "--format", "json"])
        #expect(ok.status == 0, "\(ok.error)")
        #expect(ok.output.contains(#""finishTasks" : 1"#))
        let refused = await OutputCapture.run(["inspect", "--store", bad, bundle])
        #expect(refused.status == 2)
        #expect(refused.output.contains("[CP305]"))
        // Without a bundle: the work is listed, nothing is checked.
        #expect(await OutputCapture.run(["inspect", "--store", bad]).status == 0)
        // -o never names the store.
        #expect(await OutputCapture.run(["inspect", "--store", good, "-o", good]).status == 2)
        // An unreadable bundle beside the store is usage: one line on standard error, exit 2.
        let unreadable = await OutputCapture.run(["inspect", "--store", good, folder.appendingPathComponent("None.xcdatamodeld").path])
        #expect(unreadable.status == 2 && unreadable.output.isEmpty)
        #expect(unreadable.error.hasPrefix("chainplan: error: cannot read the model bundle '"), "\(unreadable.error)")
    }

    static func chain(in folder: URL) throws -> URL {
        let header = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel">"#
        let versions = [
            "V1": #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
            "V2": #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
        ]
        for (name, entities) in versions {
            let directory = folder.appendingPathComponent("M.xcdatamodeld/\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((header + entities + "</model>").utf8).write(to: directory.appendingPathComponent("contents"))
        }
        let spec = folder.appendingPathComponent("chain.json")
        try Data(#"{"chain": ["V1", "V2"], "model": "M.xcdatamodeld"}"#.utf8).write(to: spec)
        return spec
    }
}
