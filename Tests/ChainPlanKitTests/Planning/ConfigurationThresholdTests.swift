import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanPlanning

/// Every configuration threshold sets its own field and no other. (Before the fix the reader
/// matched two keys by name and sent every other known threshold, present or future, to
/// `max-spec-bytes` through a `default:` branch; the table now names each threshold's field.)
@Suite struct ConfigurationThresholdTests {
    static var fields: [(String, KeyPath<RuleConfiguration, Int?>)] { [
        ("max-listed-path-steps", \.maxListedPathSteps),
        ("max-spec-bytes", \.maxSpecBytes),
        ("heavyweight-memory-mb", \.heavyweightMemoryMB),
    ] }

    @Test(arguments: RuleConfiguration.Threshold.allCases)
    func eachThresholdSetsOnlyItsField(_ threshold: RuleConfiguration.Threshold) throws {
        let value = threshold.range.lowerBound + 1
        let read = RuleConfiguration.read(data: Data("thresholds:\n  \(threshold.rawValue): \(value)\n".utf8), displayPath: ".chainplan.yml", codes: RuleCatalogue.all)
        let configuration = try #require(read.configuration, "\(read.diagnostics)")
        for (key, field) in Self.fields {
            #expect(configuration[keyPath: field] == (key == threshold.rawValue ? value : nil), "\(threshold.rawValue) set \(key)")
        }
    }

    @Test func everyThresholdHasAField() {
        #expect(Set(RuleConfiguration.Threshold.allCases.map(\.rawValue)) == Set(Self.fields.map(\.0)))
        #expect(Set(RuleConfiguration.Threshold.allCases.map(\.field)).count == RuleConfiguration.Threshold.allCases.count)
    }
}
