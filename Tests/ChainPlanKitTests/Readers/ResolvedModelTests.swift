import Foundation
import ChainPlanTestSupport
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

@Suite("ResolvedModel: inheritance")
struct ResolvedModelTests {
    /// Animal (abstract) ← Dog ← Puppy, Animal ← Cat, and an unrelated Person.
    static let zoo = ObjectModel(entities: [
        Entity(name: "Dog", parentEntity: "Animal",
               attributes: [Attribute(name: "breed", type: .string)],
               relationships: [Relationship(name: "toys", destinationEntity: "Toy", isToMany: true)]),
        Entity(name: "Animal", isAbstract: true,
               attributes: [Attribute(name: "name", type: .string), Attribute(name: "born", type: .date)],
               relationships: [Relationship(name: "owner", destinationEntity: "Person")],
               fetchedProperties: [FetchedProperty(name: "siblings", entity: "Animal")]),
        Entity(name: "Puppy", parentEntity: "Dog", attributes: [Attribute(name: "weeks", type: .integer16)]),
        Entity(name: "Cat", parentEntity: "Animal", attributes: [Attribute(name: "lives", type: .integer16)]),
        Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)]),
        Entity(name: "Toy"),
    ])

    @Test("ancestors, root and subentities")
    func hierarchy() throws {
        let resolved = Self.zoo.resolved()
        #expect(resolved.isComplete)
        #expect(resolved.entities.map(\.name) == ["Dog", "Animal", "Puppy", "Cat", "Person", "Toy"])
        let puppy = try #require(resolved.entity(named: "Puppy"))
        #expect(puppy.ancestors == ["Dog", "Animal"])
        #expect(puppy.parent == "Dog")
        #expect(puppy.rootEntityName == "Animal")
        #expect(!puppy.hasCyclicAncestry)
        #expect(resolved.entity(named: "Animal")?.rootEntityName == "Animal")
        #expect(resolved.entity(named: "Animal")?.ancestors == [])
        #expect(resolved.entity(named: "Animal")?.subentities == ["Dog", "Cat"])
        #expect(resolved.entity(named: "Dog")?.subentities == ["Puppy"])
        #expect(resolved.entity(named: "Person")?.subentities == [])
        #expect(resolved.descendants(of: "Animal") == ["Dog", "Cat", "Puppy"])
        #expect(resolved.entity(named: "Nope") == nil)
    }

    @Test("inherited properties first, root-most ancestor first")
    func properties() throws {
        let puppy = try #require(Self.zoo.resolved().entity(named: "Puppy"))
        #expect(puppy.attributes.map(\.name) == ["name", "born", "breed", "weeks"])
        #expect(puppy.relationships.map(\.name) == ["owner", "toys"])
        #expect(puppy.fetchedProperties.map(\.name) == ["siblings"])
        #expect(puppy.propertyNames == ["name", "born", "breed", "weeks", "owner", "toys", "siblings"])
        #expect(puppy.inheritedFrom == ["name": "Animal", "born": "Animal", "owner": "Animal", "siblings": "Animal", "breed": "Dog", "toys": "Dog"])
        #expect(puppy.isInherited("breed"))
        #expect(!puppy.isInherited("weeks"))
        // The declared entity is untouched.
        #expect(puppy.entity.attributes.map(\.name) == ["weeks"])
        let person = try #require(Self.zoo.resolved().entity(named: "Person"))
        #expect(person.attributes.map(\.name) == ["name"])
        #expect(person.inheritedFrom.isEmpty)
    }

    @Test("a redeclared inherited property is listed once, as inherited")
    func override() throws {
        let model = ObjectModel(entities: [
            Entity(name: "Base", attributes: [Attribute(name: "x", type: .string)]),
            Entity(name: "Child", parentEntity: "Base", attributes: [Attribute(name: "x", type: .integer16), Attribute(name: "y", type: .string)]),
        ])
        let child = try #require(model.resolved().entity(named: "Child"))
        #expect(child.attributes.map(\.name) == ["x", "y"])
        #expect(child.attributes.first?.type == .string)
        #expect(child.inheritedFrom["x"] == "Base")
    }

    @Test("cycles terminate")
    func cycles() throws {
        let model = ObjectModel(entities: [
            Entity(name: "A", parentEntity: "B", attributes: [Attribute(name: "a", type: .string)]),
            Entity(name: "B", parentEntity: "C", attributes: [Attribute(name: "b", type: .string)]),
            Entity(name: "C", parentEntity: "A", attributes: [Attribute(name: "c", type: .string)]),
            Entity(name: "D", parentEntity: "A"),
            Entity(name: "S", parentEntity: "S"),
        ])
        let resolved = model.resolved()
        let a = try #require(resolved.entity(named: "A"))
        #expect(a.ancestors == ["B", "C"])
        #expect(a.hasCyclicAncestry)
        #expect(a.attributes.map(\.name) == ["c", "b", "a"])
        let d = try #require(resolved.entity(named: "D"))
        #expect(d.ancestors == ["A", "B", "C"])
        #expect(d.hasCyclicAncestry)
        let s = try #require(resolved.entity(named: "S"))
        #expect(s.ancestors == [])
        #expect(s.hasCyclicAncestry)
        #expect(s.subentities == [])
        #expect(resolved.descendants(of: "A").sorted() == ["B", "C", "D"])
    }

    @Test("unknown parents end the chain; duplicate names use the first definition")
    func unknownAndDuplicates() throws {
        let model = ObjectModel(entities: [
            Entity(name: "A", parentEntity: "Missing", attributes: [Attribute(name: "a", type: .string)]),
            Entity(name: "B", parentEntity: "A"),
            Entity(name: "A", attributes: [Attribute(name: "second", type: .string)]),
        ])
        let resolved = model.resolved()
        #expect(resolved.entities.count == 2)
        let b = try #require(resolved.entity(named: "B"))
        #expect(b.ancestors == ["A"])
        #expect(b.rootEntityName == "A")
        #expect(b.attributes.map(\.name) == ["a"])
        #expect(resolved.entity(named: "A")?.hasCyclicAncestry == false)
    }

    @Test("the work budget bounds resolution")
    func budget() {
        var entities = [Entity(name: "E0")]
        for index in 1..<100 { entities.append(Entity(name: "E\(index)", parentEntity: "E\(index - 1)")) }
        let model = ObjectModel(entities: entities)
        #expect(ResolvedModel(model, budget: 100).isComplete == false)
        #expect(ResolvedModel(model, budget: 100 * 99 / 2).isComplete)
        #expect(ResolvedModel(model).entity(named: "E99")?.ancestors.count == 99)
    }
}

extension CorpusTests {
    /// The tests of `ResolvedModelTests` that read `../shared`.
    @Suite struct ResolvedModelCorpusTests {
        @Test("resolution of a real model: CoreDataPlus SampleModel3")
        func realModel() throws {
            let result = ModelTestSupport.readCorpusBundle("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld")
            let model = try #require(result.bundle?.version(named: "SampleModel2")?.model)
            let resolved = model.resolved()
            let luxury = try #require(resolved.entity(named: "LuxuryCar"))
            #expect(luxury.ancestors == ["SportCar", "Car"])
            #expect(luxury.rootEntityName == "Car")
            let car = try #require(resolved.entity(named: "Car"))
            // Every attribute of Car is inherited by LuxuryCar, in the same order, first.
            #expect(Array(luxury.attributes.prefix(car.attributes.count)).map(\.name) == car.attributes.map(\.name))
        }
    }
}
