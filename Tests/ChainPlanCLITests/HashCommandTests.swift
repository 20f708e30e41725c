import Foundation
import Testing
@testable import ChainPlanCLI

/// In-process runs of `chainplan hash` on the fixture bundle `Tests/Fixtures/Hash/Shop.xcdatamodeld`
/// (two versions: inheritance, a constraint, external storage, a transient; version 2 adds a
/// preserved attribute and orders a to-many), each output compared with its golden file.
@Suite("chainplan hash")
struct HashCommandTests {
    static let bundle = Golden.fixtures.appendingPathComponent("Hash/Shop.xcdatamodeld").path

    /// Runs in-process; what it printed on standard output is the document.
    static func run(_ arguments: [String]) async throws -> (Int32, Data) {
        let run = await OutputCapture.run(["hash"] + arguments)
        return (run.status, Data(run.output.utf8))
    }

    @Test("golden output", arguments: [
        ([String](), "Golden/hash/shop.txt"),
        (["--format", "json"], "Golden/hash/shop.json"),
        (["--format", "json", "--properties", "--version", "Shop 2"], "Golden/hash/shop-2-properties.json"),
        (["--format", "corestore"], "Golden/hash/shop.corestore.txt"),
    ] as [([String], String)])
    func golden(_ arguments: [String], _ golden: String) async throws {
        let (status, data) = try await Self.run([Self.bundle] + arguments)
        #expect(status == 0)
        #expect(try Golden.check(data, against: golden), "\(golden) differs")
    }

    @Test("exit status", arguments: [
        (["--version", "Shop 1"], Int32(0)),
        (["--version", "Shop 9"], 2),
        (["--format", "yaml"], 2),
        (["--store", "/nonexistent/store.sqlite"], 2),
    ] as [([String], Int32)])
    func exitStatus(_ arguments: [String], _ expected: Int32) async throws {
        let (status, _) = try await Self.run([Self.bundle] + arguments)
        #expect(status == expected)
    }

    @Test func nothingToHashIsAUsageError() async throws {
        let (status, _) = try await Self.run([])
        #expect(status == 2)
    }

    @Test func missingBundleIsUnusable() async throws {
        let (status, _) = try await Self.run(["/nonexistent/Model.xcdatamodeld"])
        #expect(status == 2)
    }
}
