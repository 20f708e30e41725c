import Foundation
import ChainPlanTestSupport
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Paths and helpers for the Model tests (named apart from other areas' helpers).
enum ModelTestSupport {
    /// The package root (…/Tests/ChainPlanKitTests/Readers/ModelTestSupport.swift → root).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures/Model`.
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/Model")
    /// The shared corpus, by relative path from the package root (never copied into the repo).
    static let corpus = SharedCorpus.corpus

    /// Every `.xcdatamodeld` directory under the corpus, as paths relative to the corpus, sorted.
    static func corpusBundles() -> [String] {
        var found: [String] = []
        let base = corpus.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") {
                found.append(relative)
                walker.skipDescendants()
            }
        }
        return found.sorted()
    }

    /// Reads a corpus bundle with the display path `corpus/<relative>`.
    static func readCorpusBundle(_ relative: String) -> ModelBundleReadResult {
        ModelBundleReader().read(bundleAt: corpus.appendingPathComponent(relative), displayPath: relative)
    }

    /// Parses XML text as a `contents` file named `contents`.
    static func parse(_ text: String, maxBytes: Int = ModelContentsParser.defaultMaxBytes) -> ModelParseResult {
        ModelContentsParser(maxBytes: maxBytes).parse(Data(text.utf8), file: "contents", version: "V")
    }

    /// Wraps entity XML in a minimal `<model>` document (the first entity is on line 3).
    static func model(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>
        """
    }

    /// A fresh temporary directory for building bundles on disk.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("chainplan-model-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
