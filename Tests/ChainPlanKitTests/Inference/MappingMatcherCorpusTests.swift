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
/// Matching every corpus mapping model to its `steps.tsv` step.
@Suite("Mapping matcher: corpus")
struct MappingMatcherCorpusTests {
    static let rows = CorpusMappingRow.load()

    /// Mapping models that match only by their stated path, with the reason (investigated
    /// by comparing the embedded snapshot with every version of the bundle).
    ///
    /// Delta10ToDelta11: its destination snapshot lacks `Game.isFavorite`, which `Delta 11`
    /// has (non-optional Boolean). `Delta11ToDelta12`'s *source* snapshot has it, so the
    /// attribute was added to `Delta 11` after Delta10ToDelta11 was made: a genuinely stale
    /// mapping model that Core Data will not find for Delta 10 → Delta 11.
    static let expectedPathOnly: [String: [String]] = [
        "Delta10ToDelta11": ["destination 'Delta 11': entity 'Game' hash no longer matches ('Game.isFavorite' (added))"],
    ]

    /// All rows of a bundle are that bundle's chain steps (CoreStore's includes the V2 → V1 downgrade).
    static func steps(of bundle: String) -> [(from: String, to: String)] {
        let text = (try? String(contentsOf: MappingTestPaths.corpus.appendingPathComponent("steps.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3, columns[0] == bundle else { return nil }
            return (columns[1], columns[2])
        }
    }

    @Test("each listed mapping model matches its step, by content unless known stale", arguments: rows)
    func matchesItsStep(_ row: CorpusMappingRow) throws {
        let read = MappingModelReader.read(at: row.mappingURL, displayPath: row.mappingModel)
        let mapping = try #require(read.model)
        let versions = try TestModelLoader.versions(ofBundleAt: row.bundleURL)
        let bundleName = String(row.bundleURL.lastPathComponent.dropLast(".xcdatamodeld".count))
        let steps = Self.steps(of: row.bundle)
        #expect(steps.contains { $0.from == row.from && $0.to == row.to })

        let result = MappingMatcher.match([mapping], versions: versions, bundleName: bundleName, steps: steps)
        #expect(result.unmatched.isEmpty)
        #expect(result.foreign.isEmpty)
        let match = try #require(result.matches.first)
        #expect(result.matches.count == 1)
        #expect(match.from == row.from)
        #expect(match.to == row.to)
        #expect(match.isChainStep)
        #expect(result.match(from: row.from, to: row.to) == match)

        if let differences = Self.expectedPathOnly[row.name] {
            #expect(match.basis == .path)
            #expect(match.isStale)
            #expect(match.staleDifferences == differences)
            #expect(result.diagnostics.map(\.code) == [.staleMappingModel])
            #expect(result.diagnostics.first?.location == SourceLocation(file: row.mappingModel + "/xcmapping.xml", line: mapping.line))
            #expect(result.diagnostics.first?.versions == [row.from, row.to])
        } else {
            #expect(match.basis == .content)
            #expect(!match.isStale)
            #expect(match.staleDifferences.isEmpty)
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        }
    }

    @Test("content matching ignores stale stated folders: AltStore's paths point to 'AltStore/Model', CoreStore's carry ⭐️ markers")
    func staleStatedFolders() throws {
        let altStore = try #require(Self.rows.first { $0.name == "AltStoreToAltStore2" })
        let altMapping = try #require(MappingModelReader.read(at: altStore.mappingURL, displayPath: altStore.mappingModel).model)
        #expect(altMapping.statedSourcePath == "AltStore/Model/AltStore.xcdatamodeld/AltStore.xcdatamodel")
        #expect(!altStore.mappingModel.hasPrefix("AltStore/Model"))
        #expect(altMapping.sourceHint == ModelPathHint(bundle: "AltStore", version: "AltStore"))

        let coreStore = try #require(Self.rows.first { $0.name == "Advanced.EvolutionDemo.V2.FromV1" })
        let csMapping = try #require(MappingModelReader.read(at: coreStore.mappingURL, displayPath: coreStore.mappingModel).model)
        #expect(csMapping.statedSourcePath?.contains("⭐️") == true)
        #expect(csMapping.sourceHint == ModelPathHint(bundle: "Advanced.EvolutionDemo.V1", version: "Advanced.EvolutionDemo.V1"))
    }

    @Test("embedded snapshots decode the same model as the version's contents")
    func snapshotEqualsContents() throws {
        // CoreDataPlus V2toV3: inheritance (Car ← SportCar ← LuxuryCar), renaming identifiers, relationships.
        let row = try #require(Self.rows.first { $0.name == "V2toV3" })
        let mapping = try #require(MappingModelReader.read(at: row.mappingURL, displayPath: row.mappingModel).model)
        let versions = try TestModelLoader.versions(ofBundleAt: row.bundleURL)
        let source = try #require(versions.first { $0.name == row.from }?.model)
        let snapshot = try #require(mapping.sourceModel)
        #expect(HashInputTableTests.hashes(snapshot) == HashInputTableTests.hashes(source))
        #expect(snapshot.entities.map(\.name) == source.entities.map(\.name).sorted())
        let parents = snapshot.entities.compactMap { entity in entity.parentEntity.map { "\(entity.name)<\($0)" } }
        #expect(!parents.isEmpty)
        #expect(parents == source.entities.compactMap { entity in entity.parentEntity.map { "\(entity.name)<\($0)" } }.sorted())
    }
}
}
