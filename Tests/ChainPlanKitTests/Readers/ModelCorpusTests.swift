import Foundation
import ChainPlanTestSupport
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

extension CorpusTests {
/// Every real bundle in `../shared/corpus` (see its SOURCES.md).
@Suite("Model corpus")
struct ModelCorpusTests {
    /// Bundle (relative path under the corpus) → (version count, current version) from SOURCES.md.
    static let expected: [String: (versions: Int, current: String?)] = [
        "Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld": (7, "Simplenote 7"),
        "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V1.xcdatamodeld":
            (2, "Advanced.EvolutionDemo.V1"),
        "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V2.xcdatamodeld":
            (1, "Advanced.EvolutionDemo.V2"),
        "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.xcdatamodeld": (2, nil),
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld": (3, "SampleModel"),
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld": (3, "SampleModel3"),
        "duckduckgo__iOS/DuckDuckGo/AppRatingPrompt.xcdatamodeld": (2, "AppRatingPrompt 2"),
        "kodecocodes__cdt-materials/06-versioning-and-migration/projects/final/UnCloudNotes/UnCloudNotesDataModel.xcdatamodeld":
            (4, "UnCloudNotesDataModel v4"),
        "kodecocodes__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld":
            (1, "SurfJournalModel"),
        "mastodon__mastodon-ios/MastodonSDK/Sources/CoreDataStack/CoreData.xcdatamodeld": (9, "CoreData 9"),
        "michaeleisel__wikipedia-ios/WMF Framework/Cache.xcdatamodeld": (2, "Cache 2"),
        "michaeleisel__wikipedia-ios/WMF Framework/Wikipedia.xcdatamodeld": (6, "Wikipedia 6"),
        "rileytestut__AltStore/AltStoreCore/Model/AltStore.xcdatamodeld": (9, "AltStore 9"),
        "rileytestut__Delta/Delta/Database/Model/Delta.xcdatamodeld": (12, "Delta 12"),
        "twofas__2fas-ios/TwoFAS/Storage/TwoFAS.xcdatamodeld": (7, "TwoFAS7"),
        "twofas__2fas-ios/TwoFAS/Sync/Other/Sync.xcdatamodeld": (5, "Sync5"),
        "wireapp__wire-ios-data-model/Resources/ZMEventModel.xcdatamodeld": (3, "ZMEventModel3.0"),
        "wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld": (90, "zmessaging2.101.0"),
        "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld": (117, "Model 117"),
    ]

    @Test("the corpus holds the 19 bundles of SOURCES.md")
    func corpusIsPresent() {
        #expect(ModelTestSupport.corpusBundles() == Self.expected.keys.sorted())
    }

    @Test("every corpus bundle loads", arguments: ModelTestSupport.corpusBundles())
    func loads(_ relative: String) throws {
        let result = ModelTestSupport.readCorpusBundle(relative)
        let bundle = try #require(result.bundle)
        let expectation = try #require(Self.expected[relative])
        #expect(bundle.versions.count == expectation.versions)
        #expect(bundle.currentVersion == expectation.current)
        #expect(bundle.path == relative)
        #expect(bundle.versionNames == VersionOrder.sorted(bundle.versionNames))

        let root = ModelTestSupport.corpus.appendingPathComponent(relative)
        for version in bundle.versions {
            let folder = root.appendingPathComponent("\(version.name).xcdatamodel")
            let contents = folder.appendingPathComponent("contents")
            if version.isLegacyFormat {
                #expect(!FileManager.default.fileExists(atPath: contents.path))
                // Decoded from the binary `elements` keyed archive (Simplenote's first version: one `Note` entity).
                let legacy = try #require(version.model, "legacy version \(version.name) was not decoded")
                #expect(legacy.entities.map(\.name) == ["Note"])
                #expect(legacy.entities.first?.attributes.contains { $0.name == "content" && $0.type == .string } == true)
                continue
            }
            let model = try #require(version.model, "version \(version.name) did not load")
            // Count entities independently: occurrences of "<entity " in the file.
            let text = try String(contentsOf: contents, encoding: .utf8)
            let scanned = text.components(separatedBy: "<entity ").count - 1
            #expect(model.entities.count == scanned, "\(version.name)")
            #expect(scanned > 0)
            #expect(version.path == "\(relative)/\(version.name).xcdatamodel/contents")
        }

        // The only findings: CP112 for legacy versions, CP113 for the bundle with an empty
        // `.xccurrentversion` and two versions.
        let legacy = bundle.versions.filter(\.isLegacyFormat).map(\.name)
        let codes = result.diagnostics.map(\.code)
        #expect(codes.filter { $0 == .legacyModelFormat }.count == legacy.count)
        #expect(result.diagnostics.filter { $0.code == .legacyModelFormat }.flatMap(\.versions) == legacy)
        let expectedCP113 = expectation.current == nil ? 1 : 0
        #expect(codes.filter { $0 == .noCurrentVersion }.count == expectedCP113)
        #expect(codes.allSatisfy { $0 == .legacyModelFormat || $0 == .noCurrentVersion }, "\(result.diagnostics)")
    }

    @Test("Simplenote's first version is the one legacy version in the corpus")
    func legacyVersion() throws {
        let result = ModelTestSupport.readCorpusBundle("Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld")
        let bundle = try #require(result.bundle)
        #expect(bundle.versions.filter(\.isLegacyFormat).map(\.name) == ["Simplenote"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.code == .legacyModelFormat)
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.location == SourceLocation(
            file: "Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld/Simplenote.xcdatamodel"))
        #expect(bundle.versions.filter { !$0.isLegacyFormat }.allSatisfy { $0.model != nil })
    }

    @Test("the empty-dictionary .xccurrentversion gives CP113 and no current version")
    func emptyCurrentVersion() throws {
        let relative = "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.xcdatamodeld"
        let result = ModelTestSupport.readCorpusBundle(relative)
        #expect(result.bundle?.currentVersion == nil)
        #expect(result.diagnostics.map(\.code) == [.noCurrentVersion])
        #expect(result.diagnostics.first?.location == SourceLocation(file: "\(relative)/.xccurrentversion"))
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.bundle?.versionNames == ["Advanced.EvolutionDemo", "Advanced.EvolutionDemo.V2"])
    }

    @Test("WooCommerce: 117 versions in order, model facts")
    func wooCommerce() throws {
        let result = ModelTestSupport.readCorpusBundle("woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld")
        let bundle = try #require(result.bundle)
        #expect(bundle.name == "WooCommerce")
        #expect(bundle.versionNames == ["Model"] + (2...117).map { "Model \($0)" })
        let latest = try #require(bundle.version(named: "Model 117")?.model)
        #expect(latest.entities.count == 88)
        #expect(latest.versionIdentifier == nil)
        // Model 115 renamed OrderMetaData to MetaData through elementID (SOURCES.md).
        let renamed = try #require(bundle.version(named: "Model 115")?.model?.entity(named: "MetaData"))
        #expect(renamed.renamingIdentifier == "OrderMetaData")
    }

    @Test("Wire: versions, identifiers and natural order")
    func wire() throws {
        let result = ModelTestSupport.readCorpusBundle("wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld")
        let bundle = try #require(result.bundle)
        let names = bundle.versionNames
        #expect(names.first == "zmessaging")
        #expect(names.last == "zmessaging2.101.0")
        let index24 = try #require(names.firstIndex(of: "zmessaging2.24"))
        #expect(names[index24 + 1] == "zmessaging2.24.1")
        let index9 = try #require(names.firstIndex(of: "zmessaging2.9"))
        #expect(Array(names[index9...(index9 + 2)]) == ["zmessaging2.9", "zmessaging2.10", "zmessaging2.11"])
        // SOURCES.md: 2.9, 2.10 and 2.11 all carry identifier 2.15.
        for name in ["zmessaging2.9", "zmessaging2.10", "zmessaging2.11"] {
            #expect(bundle.version(named: name)?.model?.versionIdentifier == "2.15")
        }
        #expect(bundle.version(named: "zmessaging")?.model?.versionIdentifier == "1.25")
    }

    @Test("CoreDataPlus SampleModel: renaming identifier on LuxuryCar")
    func coreDataPlus() throws {
        let result = ModelTestSupport.readCorpusBundle("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld")
        let bundle = try #require(result.bundle)
        #expect(bundle.currentVersion == "SampleModel")
        let v2 = try #require(bundle.version(named: "SampleModel2")?.model)
        #expect(v2.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        #expect(bundle.version(named: "SampleModel")?.model?.entity(named: "ExpensiveSportCar") != nil)
    }
}
}
