import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanPlanning

/// Reference §8.3, rule by rule: the passes of a heavyweight step (`PassPlanner.plan`).
struct PassPlannerTests {
    static func model(_ entities: String, name: String) -> ObjectModel? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "\(name).xcdatamodel/contents", version: name).model
    }

    static func toOne(_ name: String, _ target: String, optional: Bool, inverse: String? = nil) -> String {
        let inverseText = inverse.map { #" inverseName="\#($0)" inverseEntity="\#(target)""# } ?? ""
        return #"<relationship name="\#(name)" optional="\#(optional ? "YES" : "NO")" maxCount="1" deletionRule="Nullify" destinationEntity="\#(target)"\#(inverseText)/>"#
    }

    static func toMany(_ name: String, _ target: String, inverse: String) -> String {
        #"<relationship name="\#(name)" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="\#(target)" inverseName="\#(inverse)" inverseEntity="\#(target)"/>"#
    }

    static let idKey = #"<attribute name="id" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints>"#

    static func plan(_ entities: String, mappings: [PassEntityMapping]? = nil, rows: [String: PassRows]? = nil,
                     maxMemoryBytes: Int? = nil) -> PassPlan? {
        guard let source = model(entities, name: "V1"), let destination = model(entities, name: "V2") else { return nil }
        return PassPlanner.plan(source: source, destination: destination,
                                mappings: mappings ?? PassPlanner.defaultEntityMappings(source: source, destination: destination),
                                rows: rows, maxMemoryBytes: maxMemoryBytes)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        var entities: String
        var passes: [[String]]
        var crossPass: [PassPlan.CrossPass]
        var testDescription: String { title }
    }

    static let cases: [Case] = [
        Case(title: "mandatory chain A needs B needs C, B and C with a unique key: targets first, set by key",
             entities: #"<entity name="A">\#(toOne("b", "B", optional: false))</entity><entity name="B">\#(idKey)\#(toOne("c", "C", optional: false))</entity><entity name="C">\#(idKey)</entity>"#,
             passes: [["C"], ["B"], ["A"]],
             crossPass: [.init(entity: "A", relationship: "b", target: "B", key: "id"),
                         .init(entity: "B", relationship: "c", target: "C", key: "id")]),
        Case(title: "mandatory chain A needs B needs C without keys: one pass",
             entities: #"<entity name="A">\#(toOne("b", "B", optional: false))</entity><entity name="B">\#(toOne("c", "C", optional: false))</entity><entity name="C"/>"#,
             passes: [["A", "B", "C"]],
             crossPass: [.init(entity: "A", relationship: "b", target: "B", key: nil),
                         .init(entity: "B", relationship: "c", target: "C", key: nil)]),
        Case(title: "mutually mandatory pair shares a pass, an unrelated entity does not",
             entities: #"<entity name="A">\#(toOne("b", "B", optional: false, inverse: "a"))</entity><entity name="B">\#(toOne("a", "A", optional: false, inverse: "b"))</entity><entity name="C"/>"#,
             passes: [["A", "B"], ["C"]], crossPass: []),
        Case(title: "inheritance tree: every sub-entity its own mapping and pass",
             entities: #"<entity name="Person"/><entity name="Student" parentEntity="Person"/><entity name="Teacher" parentEntity="Person"/>"#,
             passes: [["Person"], ["Student"], ["Teacher"]], crossPass: []),
        Case(title: "a mandatory relationship to a parent entity needs its sub-entities first; the key is inherited",
             entities: #"<entity name="Person">\#(idKey)</entity><entity name="Student" parentEntity="Person"/><entity name="Badge">\#(toOne("owner", "Person", optional: false))</entity>"#,
             passes: [["Person"], ["Student"], ["Badge"]],
             crossPass: [.init(entity: "Badge", relationship: "owner", target: "Person", key: "id"),
                         .init(entity: "Badge", relationship: "owner", target: "Student", key: "id")]),
        Case(title: "optional relationship across passes, target with a unique key: fetched by key",
             entities: #"<entity name="Course"><attribute name="code" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity><entity name="Registration">\#(toOne("course", "Course", optional: true))</entity>"#,
             passes: [["Course"], ["Registration"]],
             crossPass: [.init(entity: "Registration", relationship: "course", target: "Course", key: "code")]),
        Case(title: "optional relationship across passes, no unique key: the passes merge",
             entities: #"<entity name="Course"><attribute name="code" attributeType="String"/></entity><entity name="Registration">\#(toOne("course", "Course", optional: true))</entity>"#,
             passes: [["Course", "Registration"]],
             crossPass: [.init(entity: "Registration", relationship: "course", target: "Course", key: nil)]),
        Case(title: "a relationship with an inverse is set once, from the later pass's side",
             entities: #"<entity name="Course">\#(idKey)\#(toMany("registrations", "Registration", inverse: "course"))</entity><entity name="Registration">\#(toOne("course", "Course", optional: true, inverse: "registrations"))</entity>"#,
             passes: [["Course"], ["Registration"]],
             crossPass: [.init(entity: "Registration", relationship: "course", target: "Course", key: "id")]),
        Case(title: "a one-way relationship to a later pass is set there, fetching its owner by key",
             entities: #"<entity name="Course">\#(idKey)\#(toOne("room", "Room", optional: true))</entity><entity name="Room"/>"#,
             passes: [["Course"], ["Room"]],
             crossPass: [.init(entity: "Course", relationship: "room", target: "Room", key: "id")]),
    ]

    @Test(arguments: cases) func passes(_ c: Case) throws {
        let plan = try #require(Self.plan(c.entities))
        #expect(plan.passes.map(\.entities) == c.passes)
        #expect(plan.crossPass == c.crossPass)
        #expect(plan.coverage.unmapped.isEmpty && plan.coverage.mappedTwice.isEmpty)
        #expect(plan.passes.flatMap(\.entityMappings).sorted() == plan.passes.flatMap(\.entities).map { "\($0)To\($0)" }.sorted())
        #expect(plan.singlePassMemoryBytes == nil && plan.passes.allSatisfy { $0.memoryBytes == nil && $0.objects == nil })
    }

    @Test func unmappedAndTwiceMappedEntities() throws {
        let entities = #"<entity name="A"/><entity name="B"/><entity name="C"/>"#
        let plan = try #require(Self.plan(entities, mappings: [
            .init(name: "AToA", source: "A", destination: "A"), .init(name: "AToA2", source: "A", destination: "A"),
            .init(name: "CToC", source: "C", destination: "C"),
        ]))
        #expect(plan.coverage.unmapped == ["B"])
        #expect(plan.coverage.mappedTwice == ["A"])
        // One source feeding two destination entities is a split, not a duplicate.
        let split = try #require(Self.plan(entities, mappings: [
            .init(name: "AToA", source: "A", destination: "A"), .init(name: "AToB", source: "A", destination: "B"),
            .init(name: "BToB", source: "B", destination: "B"), .init(name: "CToC", source: "C", destination: "C"),
        ]))
        #expect(split.coverage == PassPlan.Coverage())
        #expect(split.passes.first { $0.entities.contains("B") }?.entityMappings == ["AToB", "BToB"])
    }

    /// A renamed entity (renaming identifier) is kept and mapped from its old name.
    @Test func renamedEntityIsMappedFromItsSource() throws {
        let source = try #require(Self.model(#"<entity name="Note"/>"#, name: "V1"))
        let destination = try #require(Self.model(#"<entity name="Memo" elementID="Note"/>"#, name: "V2"))
        #expect(PassPlanner.defaultEntityMappings(source: source, destination: destination) == [.init(name: "NoteToMemo", source: "Note", destination: "Memo")])
        #expect(PassPlanner.keptSourceEntities(source: source, destination: destination) == ["Note"])
    }

    /// An empty renaming identifier is none (§4.1): each entity keeps its name as its key, and
    /// two such entities are not one.
    @Test func emptyRenamingIdentifiersKeyByName() throws {
        let source = try #require(Self.model(#"<entity name="Note" elementID=""/><entity name="Tag" elementID=""/>"#, name: "V1"))
        let destination = try #require(Self.model(#"<entity name="Note" elementID=""/><entity name="Tag"/>"#, name: "V2"))
        #expect(PassPlanner.defaultEntityMappings(source: source, destination: destination) == [
            .init(name: "NoteToNote", source: "Note", destination: "Note"), .init(name: "TagToTag", source: "Tag", destination: "Tag"),
        ])
        #expect(PassPlanner.keptSourceEntities(source: source, destination: destination) == ["Note", "Tag"])
    }

    @Test func storeRowsPackPassesUnderTheBudget() throws {
        let entities = #"<entity name="A"/><entity name="B"/><entity name="C"/>"#
        let rows = ["A": PassRows(rows: 1000, averageRowBytes: 488), "B": .init(rows: 1000, averageRowBytes: 488), "C": .init(rows: 3000, averageRowBytes: 488)]
        // 1000 rows × 2 × (488 + 512) = 2,000,000 bytes.
        let plan = try #require(Self.plan(entities, rows: rows, maxMemoryBytes: 4_000_000))
        #expect(plan.passes.map(\.entities) == [["A", "B"], ["C"]])
        #expect(plan.passes.map(\.objects) == [2000, 3000])
        #expect(plan.passes.map(\.memoryBytes) == [4_000_000, 6_000_000])
        #expect(plan.singlePassMemoryBytes == 10_000_000)
        // Without a budget every group is a pass of its own.
        let unbounded = try #require(Self.plan(entities, rows: rows))
        #expect(unbounded.passes.map(\.entities) == [["A"], ["B"], ["C"]])
    }

    @Test func jsonShape() throws {
        let plan = try #require(Self.plan(#"<entity name="A"/>"#))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(plan), as: UTF8.self)
        #expect(text == #"{"coverage":{"mappedTwice":[],"unmapped":[]},"crossPass":[],"passes":[{"entities":["A"],"entityMappings":["AToA"],"memoryBytes":null,"objects":null}],"singlePassMemoryBytes":null}"#)
    }

    /// A long mandatory chain does not recurse: 5,000 entities, each requiring the next.
    @Test func deepMandatoryChainIsIterative() throws {
        let count = 5_000
        let entities = (0..<count).map { index in
            index + 1 < count ? #"<entity name="E\#(index)">\#(Self.idKey)\#(Self.toOne("next", "E\(index + 1)", optional: false))</entity>"# : #"<entity name="E\#(index)">\#(Self.idKey)</entity>"#
        }.joined()
        let plan = try #require(Self.plan(entities))
        #expect(plan.passes.count == count)
        #expect(plan.passes.first?.entities == ["E\(count - 1)"])
    }
}
