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

/// The deferred lightweight migration option as an input: the spec's and the configuration's
/// `deferredLightweightMigration`, true or false and nothing else.
struct DeferredOptionTests {
    @Test(arguments: [("true", true as Bool?), ("false", false), ("\"yes\"", nil)])
    func spec(_ value: String, _ expected: Bool?) {
        let text = #"{"chain": ["V1", "V2"], "deferredLightweightMigration": \#(value)}"#
        let read = SpecReader(maxBytes: 1 << 20, codes: PlanningRules.all).read(data: Data(text.utf8), displayPath: "chain.json", syntax: .json)
        #expect(read.spec?.deferredLightweightMigration == expected)
        #expect(read.diagnostics.contains { $0.message.contains("deferredLightweightMigration must be true or false") } == (expected == nil))
    }

    @Test(arguments: [("true", true as Bool?), ("false", false), ("maybe", nil)])
    func configuration(_ value: String, _ expected: Bool?) {
        let read = RuleConfiguration.read(data: Data("deferredLightweightMigration: \(value)\n".utf8), displayPath: ".chainplan.yml", codes: RuleCatalogue.all)
        #expect(read.configuration?.deferredLightweightMigration == expected)
        #expect(read.configuration.map { $0.applying(to: PlanOptions()).deferredLightweightMigration } == expected.map { $0 })
    }
}
