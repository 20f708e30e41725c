import Testing
@testable import ChainPlanReaders

/// One definition of "mandatory" (core-data-internals §4.2), the one Core Data's mapping builder,
/// in-place validation and object validation share; inference, `passes` and the dry run read it.
@Suite struct MandatoryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var relationship: Relationship
        var mandatory: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "non-optional to-one", relationship: Relationship(name: "r", destinationEntity: "T", isOptional: false, maxCount: 1), mandatory: true),
        Case(name: "optional to-one", relationship: Relationship(name: "r", destinationEntity: "T", isOptional: true, maxCount: 1), mandatory: false),
        Case(name: "optional to-one with minCount 1 (Xcode 4–7)",
             relationship: Relationship(name: "r", destinationEntity: "T", isOptional: true, minCount: 1, maxCount: 1), mandatory: false),
        Case(name: "non-optional to-many, minCount 0",
             relationship: Relationship(name: "r", destinationEntity: "T", isToMany: true, isOptional: false), mandatory: false),
        Case(name: "non-optional to-many, minCount 1",
             relationship: Relationship(name: "r", destinationEntity: "T", isToMany: true, isOptional: false, minCount: 1), mandatory: true),
        Case(name: "optional to-many, minCount 1",
             relationship: Relationship(name: "r", destinationEntity: "T", isToMany: true, isOptional: true, minCount: 1), mandatory: false),
    ]

    @Test(arguments: cases)
    func relationship(_ c: Case) {
        #expect(c.relationship.isMandatory == c.mandatory)
    }

    @Test func attributeIsMandatoryIffNotOptional() {
        #expect(Attribute(name: "a", type: .string, isOptional: false).isMandatory)
        #expect(!Attribute(name: "a", type: .string, isOptional: true).isMandatory)
    }
}
