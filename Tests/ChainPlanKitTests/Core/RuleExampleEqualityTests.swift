import Testing
@testable import ChainPlanCore

/// `RuleExample` equality compares every field. (Seen failing before the fix: `==` compared
/// title, spec and expected findings only, so examples differing in syntax or bundle were equal.)
@Suite struct RuleExampleEqualityTests {
    static let base = RuleExample.chain("t", spec: "A: B\n", syntax: .yaml, bundleVersions: ["A", "B"], currentVersion: "B", expected: [(1, 4)])

    static let variants: [(String, RuleExample)] = [
        ("syntax", RuleExample.chain("t", spec: "A: B\n", syntax: .json, bundleVersions: ["A", "B"], currentVersion: "B", expected: [(1, 4)])),
        ("bundle versions", RuleExample.chain("t", spec: "A: B\n", syntax: .yaml, bundleVersions: ["A"], currentVersion: "B", expected: [(1, 4)])),
        ("current version", RuleExample.chain("t", spec: "A: B\n", syntax: .yaml, bundleVersions: ["A", "B"], currentVersion: "A", expected: [(1, 4)])),
        ("expected findings", RuleExample.chain("t", spec: "A: B\n", syntax: .yaml, bundleVersions: ["A", "B"], currentVersion: "B", expected: [])),
        ("title", RuleExample.chain("u", spec: "A: B\n", syntax: .yaml, bundleVersions: ["A", "B"], currentVersion: "B", expected: [(1, 4)])),
    ]

    @Test(arguments: variants.indices)
    func differingFieldMakesADifferentExample(_ index: Int) {
        let (field, variant) = Self.variants[index]
        #expect(variant != Self.base, "examples differing in \(field) compare equal")
    }

    @Test func sameFieldsAreEqual() {
        let copy = RuleExample.chain("t", spec: "A: B\n", syntax: .yaml, bundleVersions: ["A", "B"], currentVersion: "B", expected: [(1, 4)])
        #expect(copy == Self.base)
        #expect(Set([copy, Self.base]).count == 1)
    }
}
