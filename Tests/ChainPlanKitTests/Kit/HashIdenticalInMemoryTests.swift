import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore

/// CP123 on a chain: two hash-identical versions that differ only in a transformer are an error
/// when the step from them runs in memory (a mapping model, which decodes source values with the
/// transformer) and a warning when it runs in place.
@Suite struct HashIdenticalInMemoryTests {
    static func transformable(_ name: String, extra: String = "") -> String {
        #"<entity name="Note"><attribute name="data" optional="YES" attributeType="Transformable" valueTransformerName="\#(name)"/>"#
            + extra + "</entity>"
    }

    static let versions = [transformable("A"), transformable("B"),
                           transformable("B", extra: #"<attribute name="body" optional="YES" attributeType="String"/>"#)]

    static func severity(mappingModel: Bool) throws -> [Severity] {
        let files = RuleExampleFixtures.project(versions, extra: mappingModel ? #", "mappings": {"V2 -> V3": "V2ToV3.xcmappingmodel"}"# : "")
            + (mappingModel ? [RuleExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V2", to: "V3"))] : [])
        let findings = try RuleExample.project("transformer A → B", files: files, expected: 1).run()
        return findings.filter { $0.code == .hashIdenticalVersions }.map(\.severity)
    }

    @Test func errorWhenTheNextStepUsesAMappingModel() throws {
        #expect(try Self.severity(mappingModel: true) == [.error])
    }

    @Test func warningWhenTheNextStepRunsInPlace() throws {
        #expect(try Self.severity(mappingModel: false) == [.warning])
    }
}
