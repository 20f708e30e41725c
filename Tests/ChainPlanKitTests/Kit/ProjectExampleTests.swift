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

/// What project-folder examples show beyond their counts.
struct ProjectExampleTests {
    /// A mapping model matched by the paths it names, not by embedded models, is described so.
    @Test func misassignedMappingModelSaysHowItMatched() throws {
        let example = try #require(DiagnosticCode.staleMappingModel.examples.first { $0.expectedCount > 0 })
        let finding = try #require(try example.run().first { $0.code == .staleMappingModel })
        #expect(finding.message.contains("(it names 'V2' → 'V3')"), "\(finding.message)")
    }
}
