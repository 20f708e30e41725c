import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore

/// A dry run keeps the chain's CP104 whatever the cycle's length. (Seen failing before the fix: a
/// two-version cycle names exactly the versions of a step, so it was dropped as a finding about a
/// step the store never takes, while a three-version cycle was kept.)
@Suite struct DryRunCycleTests {
    static func project(_ chain: String, versions: [String]) -> [RuleExample.File] {
        [RuleExample.File("chain.json", #"{"chain": \#(chain), "model": "Model.xcdatamodeld"}"#)]
            + zip(versions, models).map { RuleExampleFixtures.version($0, $1) } + [RuleExampleFixtures.current(versions[versions.count - 1])]
    }

    /// A model per version, each different, so the store is identified as V1's.
    static let models = [RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody,
                         #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="pinned" optional="YES" attributeType="Boolean"/></entity>"#]
    static let cycles: [(String, String, [String])] = [
        ("two versions", #"{"V1": "V2", "V2": "V1"}"#, ["V1", "V2"]),
        ("three versions", #"{"V1": "V2", "V2": "V3", "V3": "V1"}"#, ["V1", "V2", "V3"]),
    ]

    @Test(arguments: cycles.indices)
    func cycleIsReported(_ index: Int) throws {
        let (title, chain, versions) = Self.cycles[index]
        let example = RuleExample.project(title, files: Self.project(chain, versions: versions),
                                   store: .fixture("V1", rows: 1, simulate: false), expected: 1)
        let cycles = try example.run().filter { $0.code == .migrationCycle }
        #expect(cycles.count == 1, "\(title)")
        #expect(cycles.first?.versions.sorted() == versions, "\(title)")
    }
}
