import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore

/// An example that cannot be set up is a harness failure, never the user's CP111. (Seen failing
/// before the fix: a store fixture for a version the bundle lacks came back as a CP111 finding,
/// which an example expecting CP111 would have counted.)
@Suite struct RuleExampleHarnessTests {
    @Test("a fixture version the bundle lacks is a harness failure")
    func missingFixtureVersion() {
        let example = RuleExample.project("a store for a version that is not there",
                                   files: RuleExampleFixtures.project([RuleExampleFixtures.note]),
                                   store: .fixture("V9", rows: 1, simulate: false), expected: 0)
        let findings = try? example.run()
        #expect(findings == nil, "reported as findings: \(findings?.map(\.code.rawValue) ?? [])")
    }
}
