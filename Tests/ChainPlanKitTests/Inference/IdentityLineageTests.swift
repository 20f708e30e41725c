import Testing
@testable import ChainPlanInference
@testable import ChainPlanReaders

/// `ResolvedView.identityLineage`: every entity and stored property to itself.
@Suite struct IdentityLineageTests {
    static func view(_ body: String) throws -> ResolvedView {
        ResolvedView(try #require(ModelTestSupport.parse(ModelTestSupport.model(body)).model))
    }

    /// The documented example: `Note { title, body }`.
    @Test func everyStoredPropertyToItself() throws {
        let view = try Self.view(#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#)
        let lineage = view.identityLineage()
        #expect(lineage.entities == ["Note": "Note"])
        #expect(lineage.properties == [PropertyKey("Note", "title"): PropertyKey("Note", "title"), PropertyKey("Note", "body"): PropertyKey("Note", "body")])
    }

    /// Transient properties carry no data; entities `including` refuses are left out.
    @Test func transientsAndExcludedEntitiesAreLeftOut() throws {
        let view = try Self.view(#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="draft" optional="YES" transient="YES" attributeType="String"/></entity>"#
            + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#)
        let lineage = view.identityLineage { $0 == "Note" }
        #expect(lineage.entities == ["Note": "Note"])
        #expect(lineage.properties == [PropertyKey("Note", "title"): PropertyKey("Note", "title")])
    }
}
