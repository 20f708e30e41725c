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

/// What project-folder examples show beyond their counts.
struct ProjectExampleTests {
    /// A mapping model matched by the paths it names, not by embedded models, is described so.
    @Test func misassignedMappingModelSaysHowItMatched() throws {
        let example = try #require(DiagnosticCode.staleMappingModel.examples.first { $0.expectedCount > 0 })
        let finding = try #require(try example.run().first { $0.code == .staleMappingModel })
        #expect(finding.message.contains("(it names 'V2' → 'V3')"), "\(finding.message)")
    }

    /// A missing bundle is named as the spec names it, so `rules CP111` prints the same text on
    /// every run. (Seen failing before the fix: the message held the example's random temporary
    /// folder.)
    @Test func missingBundleIsNamedAsTheSpecNamesIt() throws {
        let example = try #require(DiagnosticCode.unreadableModelBundle.examples.first { $0.expectedCount > 0 })
        let finding = try #require(try example.run().first { $0.code == .unreadableModelBundle })
        #expect(!finding.message.contains(FileManager.default.temporaryDirectory.path), "\(finding.message)")
        #expect(try example.run().map(\.message) == example.run().map(\.message))
    }
}
