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

/// `dry-run --deferred` (reference §7.2): on the scratch copy, a removed attribute's column is
/// renamed `_DEFERRED_…__<column>` instead of rebuilding the table; without the option the
/// table is rebuilt. The user's store is untouched either way.
struct DeferredDryRunTests {
    static let header = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel">"#

    static func chain(in folder: TemporaryFolder) throws -> URL {
        let versions = [
            "V1": #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
            "V2": #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
        ]
        for (name, entities) in versions {
            let directory = folder.url.appendingPathComponent("M.xcdatamodeld/\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((header + entities + "</model>").utf8).write(to: directory.appendingPathComponent("contents"))
        }
        let spec = folder.url.appendingPathComponent("chain.json")
        try Data(#"{"chain": ["V1", "V2"], "model": "M.xcdatamodeld"}"#.utf8).write(to: spec)
        return spec
    }

    @Test(arguments: [false, true])
    func removedAttribute(deferring: Bool) throws {
        let folder = try TemporaryFolder()
        let spec = try Self.chain(in: folder)
        let path = try DryRunTests.fixture(spec, "V1", rows: 5, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = PlanOptions()
        options.baseDirectory = folder.url
        options.deferredLightweightMigration = deferring
        let sql = SQLCollector()
        var dryRun = DryRunOptions()
        dryRun.sqlLog = { sql.append($0) }
        let report = ChainPlanner(options: options).dryRun(inputAt: spec, storeAt: path, options: dryRun)
        let step = try #require(report.store?.steps.first)
        let kinds = step.simulation?.operations.filter { $0.table == "ZNOTE" }.map(\.kind) ?? []
        if deferring {
            #expect(kinds == ["columns deferred"])
            #expect(sql.lines.contains { $0.hasPrefix("ALTER TABLE \"ZNOTE\" RENAME COLUMN \"ZBODY\" TO \"_DEFERRED_") && $0.hasSuffix("__ZBODY\";") })
        } else {
            #expect(kinds == ["table rebuilt and copied"])
        }
        #expect(report.plan.steps.first?.sqlite?.tables.first?.work == (deferring ? .deferred : .rebuilt))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the user's store is never modified")
    }
}

/// Collects the SQL log lines of a dry run (called from the simulation's thread).
final class SQLCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func append(_ line: String) { lock.lock(); collected.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return collected }
}
