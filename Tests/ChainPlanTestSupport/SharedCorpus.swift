import Foundation
import Testing

/// The shared corpus of real model histories (and the SARIF schema) that sits beside the
/// repository as `../shared`, read in place and never copied into the project.
///
/// Tests that need it are nested in ``CorpusTests`` (`extension CorpusTests { @Suite struct … }`),
/// so that when it is absent the whole group is skipped with one line:
///
///     ➜ Suite CorpusTests was cancelled …: "shared corpus not found at …; corpus tests skipped"
///
/// CI sets `CHAINPLAN_REQUIRE_CORPUS=1` (see `.ci/run`), which turns that skip into a failure.
/// `CHAINPLAN_SHARED=/path/to/shared` points the tests at another copy.
public enum SharedCorpus {
    /// The package root (…/Tests/ChainPlanTestSupport/SharedCorpus.swift → root).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the package root, or `CHAINPLAN_SHARED` when set.
    public static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["CHAINPLAN_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path).standardizedFileURL
        }
        return packageRoot.appendingPathComponent("../shared").standardizedFileURL
    }()

    /// `../shared/corpus`: the model histories, stores and `steps.tsv`.
    public static let corpus = shared.appendingPathComponent("corpus")
    /// `../shared/schemas/sarif-schema-2.1.0.json`.
    public static let sarifSchema = shared.appendingPathComponent("schemas/sarif-schema-2.1.0.json")

    /// The corpus is there when its folder is.
    public static var isPresent: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: corpus.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `CHAINPLAN_REQUIRE_CORPUS=1`: an absent corpus is a failure, not a skip.
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["CHAINPLAN_REQUIRE_CORPUS"] == "1"
    }

    /// The one line printed when the group is skipped.
    public static var skipNotice: String {
        "shared corpus not found at \(corpus.path); corpus tests skipped"
    }

    /// The failure when the corpus is required but absent.
    public static var requiredNotice: String {
        "shared corpus not found at \(corpus.path), and CHAINPLAN_REQUIRE_CORPUS=1 requires it"
    }
}

/// Runs the suite it is attached to only when the shared corpus is present: otherwise the suite
/// is cancelled (one line, its tests never start), or fails once when the corpus is required.
public struct SharedCorpusTrait: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard SharedCorpus.isPresent else {
            if SharedCorpus.isRequired {
                Issue.record(Comment(rawValue: SharedCorpus.requiredNotice))
                return
            }
            try Test.cancel(Comment(rawValue: SharedCorpus.skipNotice))
        }
        try await function()
    }
}

/// Every test that reads `../shared` is nested in this suite (from either test target).
@Suite(SharedCorpusTrait())
public enum CorpusTests {}
