import Foundation
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

/// What an output path resolves to, against a store with side files and a support folder.
@Suite struct StoreFileGuardTests {
    static let cases: [(output: String, reason: String?)] = [
        ("g2.sqlite", "resolves to the store"),
        ("sub/../g2.sqlite", "resolves to the store"),
        ("g2.sqlite-wal", "resolves to the store's side file 'g2.sqlite-wal'"),
        ("g2.sqlite-journal", "resolves to the store's side file 'g2.sqlite-journal'"),
        (".g2_SUPPORT", "is inside the store's support folder '.g2_SUPPORT'"),
        (".g2_SUPPORT/new/deeper.txt", "is inside the store's support folder '.g2_SUPPORT'"),
        ("link.sqlite", "resolves to the store"),
        ("dangling", "resolves to the store's side file 'g2.sqlite-shm'"),
        ("hard.sqlite", "is a hard link to one of the store's files"),
        ("g2.sqlite.sql", nil),
        ("g2.txt", nil),
        ("sub/g2.sqlite", nil),
        (".g2_SUPPORTED", nil),
    ]

    @Test(arguments: cases.map(\.output))
    func conflicts(_ output: String) throws {
        let expected = try #require(Self.cases.first { $0.output == output }).reason
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        try Data("SQLite format 3\0".utf8).write(to: folder.url.appendingPathComponent("g2.sqlite"))
        try Data().write(to: folder.url.appendingPathComponent("g2.sqlite-wal"))
        try manager.createDirectory(at: folder.url.appendingPathComponent(".g2_SUPPORT/_EXTERNAL_DATA"), withIntermediateDirectories: true)
        try manager.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: folder.path("link.sqlite"), withDestinationPath: "g2.sqlite")
        try manager.createSymbolicLink(atPath: folder.path("dangling"), withDestinationPath: "sub/../g2.sqlite-shm")
        #expect(link(folder.path("g2.sqlite"), folder.path("hard.sqlite")) == 0)
        // The store given through a symbolic link protects the real store's files too.
        for store in [folder.path("g2.sqlite"), folder.path("link.sqlite")] {
            #expect(StoreFileGuard(storePath: store).conflict(withOutput: folder.path(output)) == expected)
        }
    }
}
