import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanHashing
@testable import ChainPlanOutput
@testable import ChainPlanReaders

/// `TextconvReport`'s lines for single facts, from plain values (the whole text is golden in
/// `TextconvCommandTests`).
@Suite struct TextconvReportTests {
    /// A relationship count is shown exactly when it differs from what Core Data hashes for an
    /// unwritten one, so every hashed count is visible and Xcode's `maxCount="1"` is not noise.
    @Test(arguments: [
        (false, nil, nil, "relationship r -> T, to-one, delete nullify"),
        (false, nil, 1, "relationship r -> T, to-one, delete nullify"),
        (false, nil, 0, "relationship r -> T, to-one, delete nullify, max 0"),
        (true, nil, nil, "relationship r -> T, to-many, delete nullify"),
        (true, 1, 5, "relationship r -> T, to-many, delete nullify, min 1, max 5"),
        (true, nil, 1, "relationship r -> T, to-many, delete nullify, max 1"),
    ] as [(Bool, Int?, Int?, String)])
    func relationshipCounts(_ toMany: Bool, _ minCount: Int?, _ maxCount: Int?, _ expected: String) {
        var relationship = Relationship(name: "r", destinationEntity: "T", isToMany: toMany, isOptional: false)
        if let minCount { relationship.minCount = minCount; relationship.hasWrittenMinCount = true }
        if let maxCount { relationship.maxCount = maxCount; relationship.hasWrittenMaxCount = true }
        #expect(TextconvReport.lines(of: relationship) == [expected])
    }

    @Test(arguments: [
        (Attribute(name: "a", type: .integer64), "attribute a: Integer 64"),
        (Attribute(name: "a", type: .string, isOptional: true, defaultValueString: "x \"y\""), #"attribute a: String, optional, default "x \"y\"""#),
        (Attribute(name: "a", type: .date, defaultDateTimeInterval: "0"), "attribute a: Date, default 2001-01-01T00:00:00Z"),
        (Attribute(name: "a", type: .date, defaultDateTimeInterval: "1.5"), #"attribute a: Date, default "1.5" s after 2001-01-01"#),
        (Attribute(name: "a", type: .composite, compositeName: "Place"), "attribute a: Composite Place"),
        (Attribute(name: "a", type: .other("Vector")), "attribute a: Vector"),
        (Attribute(name: "a", type: .double, isDerived: true, derivationExpression: "b.@sum"), #"attribute a: Double, derived "b.@sum""#),
    ] as [(Attribute, String)])
    func attributeLines(_ attribute: Attribute, _ expected: String) {
        #expect(TextconvReport.lines(of: attribute) == [expected])
    }

    /// A model Core Data cannot hash says why on its first line, and its entities have no hash.
    @Test func aModelWithoutHashes() {
        let model = ObjectModel(entities: [Entity(name: "B", parentEntity: "A"), Entity(name: "A", parentEntity: "B")])
        let report = TextconvReport(model: model, hashes: ModelHasher.hash(model, withProperties: false))
        let lines = report.text().split(separator: "\n").map(String.init)
        #expect(lines.first == "model checksum none: entity 'B' is its own ancestor")
        #expect(lines.contains("entity A : B  (no hash)"))
        #expect(lines.firstIndex(of: "entity A : B  (no hash)")! < lines.firstIndex(of: "entity B : A  (no hash)")!)
    }

    /// The file's order is no fact: entities, properties, constraints and configuration members
    /// reordered give the same text.
    @Test func orderInTheFileIsNoFact() {
        let tag = Entity(name: "Tag", attributes: [Attribute(name: "b", type: .string), Attribute(name: "a", type: .string)],
                         uniquenessConstraints: [["b"], ["a"]])
        let note = Entity(name: "Note")
        var reordered = tag
        reordered.attributes.reverse()
        reordered.uniquenessConstraints.reverse()
        let first = ObjectModel(entities: [tag, note], configurations: [Configuration(name: "C", memberEntities: ["Tag", "Note"])])
        let second = ObjectModel(entities: [note, reordered], configurations: [Configuration(name: "C", memberEntities: ["Note", "Tag"])])
        let text = { (model: ObjectModel) in TextconvReport(model: model, hashes: ModelHasher.hash(model, withProperties: false)).text() }
        #expect(text(first) == text(second))
        #expect(text(first).hasSuffix("configuration C: Note, Tag\n"))
    }

    /// CloudKit mirroring is a fact of the model (its Default configuration) or of a configuration.
    @Test func cloudKitIsShown() {
        let model = ObjectModel(entities: [Entity(name: "A")],
                                configurations: [Configuration(name: "Cloud", memberEntities: ["A"], usedWithCloudKit: true),
                                                 Configuration(name: "Empty", memberEntities: [])],
                                usedWithCloudKit: true)
        let lines = TextconvReport(model: model, hashes: ModelHasher.hash(model, withProperties: false)).text().split(separator: "\n").map(String.init)
        #expect(lines[1] == "model used with CloudKit")
        #expect(lines.suffix(2) == ["configuration Cloud (used with CloudKit): A", "configuration Empty: no entities"])
    }
}
