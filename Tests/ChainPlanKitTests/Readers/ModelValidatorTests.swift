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

@Suite("ModelValidator: CP115, CP116, CP117")
struct ModelValidatorTests {
    /// Parses `Tests/Fixtures/Model/Semantic/<name>` with that display path.
    static func parseFixture(_ name: String) throws -> ModelParseResult {
        let file = "Semantic/\(name)"
        let data = try Data(contentsOf: ModelTestSupport.fixtures.appendingPathComponent(file))
        return ModelContentsParser().parse(data, file: file, version: "V1")
    }

    /// (code, file:line, message) of each finding.
    static func summary(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.code.rawValue) \($0.location?.description ?? "-") \($0.message)" }
    }

    @Test("duplicate entity names")
    func duplicateEntities() throws {
        let result = try Self.parseFixture("duplicate-entity.xml")
        #expect(result.model != nil)
        #expect(Self.summary(result.diagnostics) == [
            "CP115 Semantic/duplicate-entity.xml:9:5 entity 'Note' is defined more than once, first (line 3)",
            "CP115 Semantic/duplicate-entity.xml:12:5 entity 'Note' is defined more than once, first (line 3)",
        ])
        #expect(result.diagnostics.allSatisfy { $0.severity == .error && $0.versions == ["V1"] })
    }

    @Test("duplicate property names within an entity")
    func duplicateProperties() throws {
        let result = try Self.parseFixture("duplicate-property.xml")
        #expect(Self.summary(result.diagnostics) == [
            "CP115 Semantic/duplicate-property.xml:6:9 entity 'Note' defines property 'text' more than once, first (line 4)",
            "CP115 Semantic/duplicate-property.xml:7:9 entity 'Note' defines property 'title' more than once, first (line 5)",
            "CP115 Semantic/duplicate-property.xml:8:9 entity 'Note' defines property 'text' more than once, first (line 4)",
        ])
    }

    @Test("properties redeclared from an ancestor")
    func inheritedProperties() throws {
        let result = try Self.parseFixture("inherited-property.xml")
        #expect(Self.summary(result.diagnostics) == [
            "CP115 Semantic/inherited-property.xml:9:9 property 'name' of entity 'Dog' is already defined by its ancestor entity 'Animal'",
            "CP115 Semantic/inherited-property.xml:12:9 property 'owner' of entity 'Puppy' is already defined by its ancestor entity 'Animal'",
            "CP115 Semantic/inherited-property.xml:13:9 property 'breed' of entity 'Puppy' is already defined by its ancestor entity 'Dog'",
        ])
    }

    @Test("unknown destination, inverse and parent entities")
    func unknownReferences() throws {
        let result = try Self.parseFixture("unknown-references.xml")
        #expect(Self.summary(result.diagnostics) == [
            "CP116 Semantic/unknown-references.xml:4:9 relationship 'Order.customer' names destination entity 'Customer', which does not exist",
            "CP116 Semantic/unknown-references.xml:4:9 relationship 'Order.customer' names inverse entity 'Customer', which does not exist",
            "CP116 Semantic/unknown-references.xml:6:9 relationship 'Order.dangling' has no destination entity",
            "CP116 Semantic/unknown-references.xml:8:5 entity 'OrderLine' names parent entity 'LineBase', which does not exist",
            "CP116 Semantic/unknown-references.xml:9:9 relationship 'OrderLine.order' names inverse entity 'Ordr', which does not exist",
        ])
    }

    @Test("parent-entity cycles, each reported once")
    func parentCycles() throws {
        let result = try Self.parseFixture("parent-cycle.xml")
        #expect(Self.summary(result.diagnostics) == [
            "CP117 Semantic/parent-cycle.xml:3:5 entity inheritance forms a cycle: 'Zeta' → 'Alpha' → 'Beta' → 'Zeta'",
            "CP117 Semantic/parent-cycle.xml:12:5 entity 'Self' is its own parent entity",
        ])
        #expect(result.diagnostics.allSatisfy { $0.code.unusableInput })
    }

    @Test("a valid model has no findings")
    func valid() throws {
        let url = ModelTestSupport.fixtures.appendingPathComponent("AllFields.xcdatamodeld/AllFields.xcdatamodel/contents")
        let result = ModelContentsParser().parse(try Data(contentsOf: url), file: "f")
        #expect(result.diagnostics == [])
    }

    @Test("all kinds in one model are all reported")
    func everything() {
        let model = ObjectModel(entities: [
            Entity(name: "A", parentEntity: "B", attributes: [Attribute(name: "x", type: .string, line: 2)], line: 1),
            Entity(name: "B", parentEntity: "A", line: 3),
            Entity(name: "C", attributes: [Attribute(name: "y", type: .string, line: 5), Attribute(name: "y", type: .string, line: 6)],
                   relationships: [Relationship(name: "r", destinationEntity: "Nope", line: 7)], line: 4),
            Entity(name: "C", line: 8),
        ])
        let diagnostics = ModelValidator.validate(model, file: "m", version: nil)
        #expect(diagnostics.map(\.code) == [.parentEntityCycle, .duplicateModelName, .unknownEntityReference, .duplicateModelName])
        #expect(diagnostics.map { $0.location?.line } == [1, 6, 7, 8])
        #expect(diagnostics.allSatisfy { $0.versions.isEmpty })
    }

    @Test("a long parent cycle is reported once")
    func longCycle() {
        let count = 500
        var entities = [Entity(name: "E0", line: 1)]
        for index in 1..<count {
            entities.append(Entity(name: "E\(index)", parentEntity: "E\(index - 1)", line: index + 1))
        }
        entities[0].parentEntity = "E\(count - 1)"
        let diagnostics = ModelValidator.validate(ObjectModel(entities: entities), file: "m")
        #expect(diagnostics.map(\.code) == [.parentEntityCycle])
        #expect(diagnostics.first?.location?.line == 1)
        #expect(diagnostics.first?.message.hasPrefix("entity inheritance forms a cycle: 'E0' → 'E499' → 'E498'") == true)
    }

    @Test("an inheritance too large to resolve is refused, in bounded time")
    func hugeInheritance() {
        // 3,000 levels: resolving every entity's ancestors would take 4.5 million entries.
        var entities = [Entity(name: "E0", attributes: [Attribute(name: "a0", type: .string)], line: 1)]
        for index in 1..<3_000 {
            entities.append(Entity(name: "E\(index)", parentEntity: "E\(index - 1)",
                                   attributes: [Attribute(name: "a\(index)", type: .string)], line: index + 1))
        }
        let diagnostics = ModelValidator.validate(ObjectModel(entities: entities), file: "m")
        #expect(diagnostics.map(\.code) == [.malformedModelXML])
        #expect(diagnostics.first?.location == SourceLocation(file: "m"))
    }
}
