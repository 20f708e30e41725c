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
/// Every mapping model of the shared corpus, read for real.
@Suite("Mapping model reader: corpus")
struct MappingModelReaderCorpusTests {
    static let rows = CorpusMappingRow.load()

    @Test("the corpus lists 30 mapping models, all present on disk")
    func corpusIsPresent() throws {
        #expect(Self.rows.count == 30)
        let discovered = MappingModelDiscovery.find(in: MappingTestPaths.corpus, maxDepth: 12)
        #expect(discovered.urls.count == 30)
        #expect(discovered.isTruncated == false)
        let listed = Set(Self.rows.map { $0.mappingURL.standardizedFileURL.path })
        #expect(Set(discovered.urls.map { $0.standardizedFileURL.path }) == listed)
    }

    @Test("reads without diagnostics; policies and value expressions match steps.tsv", arguments: rows)
    func readsCleanly(_ row: CorpusMappingRow) throws {
        let result = MappingModelReader.read(at: row.mappingURL, displayPath: row.mappingModel)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let model = try #require(result.model)
        #expect(model.name == row.name)
        #expect(model.path == row.mappingModel)
        #expect(model.documentPath == row.mappingModel + "/xcmapping.xml")
        #expect(model.sourceModel != nil)
        #expect(model.destinationModel != nil)
        #expect(model.sourceUnrecordedFields.isEmpty)
        #expect(model.destinationUnrecordedFields.isEmpty)
        #expect(!model.entityMappings.isEmpty)
        if let policies = row.notedPolicies {
            #expect(model.customPolicies == policies)
        } else {
            #expect(model.customPolicies.isEmpty)
        }
        if let count = row.notedValueExpressions {
            #expect(model.valueExpressionCount == count)
        }
        // The custom-mapping-policy label means at least one entity mapping names a policy.
        #expect((row.label == "custom-mapping-policy") == !model.customPolicies.isEmpty)
        // The stated paths name the row's versions (possibly under a stale folder).
        #expect(model.sourceHint?.version == row.from)
        #expect(model.destinationHint?.version == row.to)
    }
}
}
