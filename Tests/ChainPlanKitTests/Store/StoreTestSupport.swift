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

/// The corpus stores and the bundles they belong to.
enum StoreCorpus {
    static let wire = "wireapp__wire-ios-data-model"
    static let wireBundle = "\(wire)/Resources/zmessaging.xcdatamodeld"
    static let coreDataPlus = "alemar11__CoreDataPlus/Tests/Resources"
    static let duckDuckGo = "duckduckgo__iOS"
    static let surf = "kodecocodes__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal"

    struct Case: Sendable, CustomStringConvertible {
        var store: String
        var bundle: String
        var momd: String?
        /// Expected version (nil: unknown).
        var version: String?
        var evidence: IdentificationEvidence?
        var description: String { (store as NSString).lastPathComponent }
    }

    static let cases: [Case] = [
        wireCase("store1-24", nil, nil),
        wireCase("store1-25", "zmessaging", .hashes),
        wireCase("store1-27", "zmessaging1.27", .hashes),
        wireCase("store2-3", "zmessaging2.3", .hashes),
        wireCase("store2-21-1", "zmessaging2.21.1", .hashes),
        wireCase("store2-39-0", "zmessaging2.39.0", .hashes),
        wireCase("store2-40-0", "zmessaging2.39.0", .hashes),
        wireCase("store2-60-0", "zmessaging2.60.0", .hashes),
        wireCase("store2-80-0", "zmessaging2.80.0", .hashes),
        wireCase("store2-100-0", "zmessaging2.100.0", .hashes),
        wireCase("store2-101-0", "zmessaging2.101.0", .hashes),
        Case(store: "\(coreDataPlus)/SampleModel/Fixtures/SampleModel_V1.sqlite",
             bundle: "\(coreDataPlus)/SampleModel/SampleModel.xcdatamodeld",
             momd: "\(coreDataPlus)/SampleModel/Fixtures/SampleModel.momd", version: "SampleModel", evidence: .hashes),
        Case(store: "\(coreDataPlus)/SampleModel/Fixtures/SampleModel_V2.sqlite",
             bundle: "\(coreDataPlus)/SampleModel/SampleModel.xcdatamodeld",
             momd: "\(coreDataPlus)/SampleModel/Fixtures/SampleModel.momd", version: "SampleModel2", evidence: .hashes),
        Case(store: "\(coreDataPlus)/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
             bundle: "\(coreDataPlus)/SampleModel3/SampleModel3.xcdatamodeld",
             momd: "\(coreDataPlus)/SampleModel3/Fixtures/SampleModel3.momd", version: "SampleModel3", evidence: .hashes),
        Case(store: "\(duckDuckGo)/DuckDuckGoTests/AppRatingPrompt_v1/Database.sqlite",
             bundle: "\(duckDuckGo)/DuckDuckGo/AppRatingPrompt.xcdatamodeld", momd: nil,
             version: "AppRatingPrompt", evidence: .hashes),
        Case(store: "\(surf)/CoreDataSeed/SurfJournalModel.sqlite",
             bundle: "\(surf)/SurfJournalModel.xcdatamodeld", momd: nil,
             version: "SurfJournalModel", evidence: .hashes),
    ]

    static func wireCase(_ name: String, _ version: String?, _ evidence: IdentificationEvidence?) -> Case {
        Case(store: "\(wire)/Tests/Resources/\(name).wiredatabase", bundle: wireBundle, momd: nil,
             version: version, evidence: evidence)
    }

    static func url(_ relative: String) -> URL { TestPaths.corpus.appendingPathComponent(relative) }

    /// Parsed bundles, cached per path (Wire has 90 versions).
    static func versions(_ bundle: String) throws -> [ModelVersion] {
        if let cached = cache.get(bundle) { return cached }
        let loaded = try TestModelLoader.bundle(at: url(bundle))
        cache.set(bundle, loaded)
        return loaded
    }

    private static let cache = BundleCache()

    final class BundleCache: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: [ModelVersion]] = [:]
        func get(_ key: String) -> [ModelVersion]? {
            lock.lock()
            defer { lock.unlock() }
            return values[key]
        }
        func set(_ key: String, _ value: [ModelVersion]) {
            lock.lock()
            values[key] = value
            lock.unlock()
        }
    }
}

/// File snapshots for never-modify checks.
enum FileSnapshot {
    /// SHA-256 of every regular file in `folder` (recursively) plus the sorted listing with
    /// sizes, modes and modification times.
    static func of(folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let root = folder.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return result }
        while let relative = enumerator.nextObject() as? String {
            let path = (root as NSString).appendingPathComponent(relative)
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let meta = "mode=\(info.st_mode) size=\(info.st_size) mtime=\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            if (info.st_mode & S_IFMT) == S_IFREG {
                result[relative] = meta + " sha256=" + (try sha256(path))
            } else {
                result[relative] = meta
            }
        }
        var own = stat()
        if stat(root, &own) == 0 { result["."] = "mode=\(own.st_mode) mtime=\(own.st_mtim.tv_sec).\(own.st_mtim.tv_nsec)" }
        return result
    }

    static func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}

/// A private temporary directory for one test, removed at the end.
final class TemporaryFolder: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-store-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    /// Copies corpus files (a store and its side files) here, writable.
    func copy(_ source: URL, as name: String? = nil) throws -> URL {
        let destination = url.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: destination)
        chmod(destination.path, 0o644)
        return destination
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

extension StoreMetadata {
    /// The metadata without Core Data's hashes, checksum and digest (a store written before
    /// them, or by a tool that omits them): identification falls back to identifiers and structure.
    var withoutHashes: StoreMetadata {
        var copy = self
        copy.modelVersionHashes = [:]
        copy.modelVersionChecksum = nil
        copy.modelVersionHashesDigest = nil
        return copy
    }
}
