import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanInference

/// The look-ups a table plan makes for every column, indexed so that a step over entities with
/// thousands of properties stays linear (a 32,000-attribute step took 279 s, then 2.9 s): they
/// must answer exactly what the plain scans answer.
@Suite struct InPlaceLookupTests {
    static let liveColumns = ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZNAME1", "ZTITLE2", "Zbody", "ZNOTE_3", "ZÉTÉ", "ZÉTÉ7"]

    /// Exact (any case) first, else the one live column that differs only in a trailing number.
    @Test(arguments: ["ZNAME", "zname", "ZNAME1", "ZNAME2", "ZTITLE", "ZTITLE9", "ZBODY", "ZBODY1", "ZNOTE_", "ZNOTE_3",
                      "Z_OPT", "ZÉTÉ", "ZÉTÉ2", "ZMISSING", "", "Z"])
    func liveColumnAgreesWithTheScan(_ predicted: String) {
        let table = StoreLayout.Table(name: "ZNOTE", rootEntity: "Note", entities: ["Note"], columns: [])
        let source = InPlaceTablePlan.Source(layout: table, live: LiveSchema.Table(name: "ZNOTE", columns: Self.liveColumns))
        #expect(source.liveColumn(predicted) == LiveSchema.column(predicted, in: Self.liveColumns))
    }

    /// The source property a destination property is filled from: the one the §4.1 pairing
    /// chose (renaming identifier, else name), with the entity that declares it.
    @Test func sourcePropertiesFollowThePairing() {
        let source = M(E("Base", [.a("created", .date), .r("owner", to: "Person")]),
                       E("Note", parent: "Base", [.a("text", .string), .a("title", .string), .r("tags", to: "Tag", many: true)]),
                       E("Person"), E("Tag"))
        let destination = M(E("Base", [.a("created", .date), .r("owner", to: "Person")]),
                            E("Note", parent: "Base", [.a("body", .string, rid: "text"), .a("title", .string), .a("new", .string),
                                                       .r("labels", to: "Tag", many: true, rid: "tags")]),
                            E("Person"), E("Tag"))
        let mapping = StepMapping(source: source, destination: destination)
        #expect(mapping.sourceAttribute(of: "Note", "body").map { [$0.declaringEntity, $0.attribute.name] } == ["Note", "text"])
        #expect(mapping.sourceAttribute(of: "Note", "title").map { [$0.declaringEntity, $0.attribute.name] } == ["Note", "title"])
        #expect(mapping.sourceAttribute(of: "Note", "created").map { [$0.declaringEntity, $0.attribute.name] } == ["Base", "created"])
        #expect(mapping.sourceAttribute(of: "Note", "new") == nil)
        #expect(mapping.sourceRelationship(of: "Note", "labels").map { [$0.declaringEntity, $0.relationship.name] } == ["Note", "tags"])
        #expect(mapping.sourceRelationship(of: "Note", "owner").map { [$0.declaringEntity, $0.relationship.name] } == ["Base", "owner"])
        #expect(mapping.sourceRelationship(of: "Missing", "owner") == nil)
    }

    /// With two source attributes of one name, the one the pairing matched is the one returned
    /// (a name look-up would return the first, which the pairing did not take).
    @Test func theMatchedOneOfTwoNamesakes() {
        let source = M(E("Note", [.a("x", .string, rid: "old"), .a("x", .integer64)]))
        let destination = M(E("Note", [.a("x", .integer64)]))
        let found = StepMapping(source: source, destination: destination).sourceAttribute(of: "Note", "x")
        #expect(found?.attribute.type == .integer64)
    }
}

/// A layout's look-ups by entity (`Z_ENT` slot, hierarchy table) answer what a scan of its
/// lists answers, also after the lists are changed.
@Suite struct StoreLayoutLookupTests {
    static let model = M(E("Zed"), E("Note", [.a("title", .string)]), E("Draft", parent: "Note"), E("Alpha"))

    @Test func lookUpsAgreeWithTheLists() {
        var layout = StoreLayout(model: Self.model)
        for name in ["Zed", "Note", "Draft", "Alpha", "Missing"] {
            #expect(layout.entity(named: name) == layout.entities.first { $0.name == name })
            #expect(layout.table(holding: name) == layout.tables.first { $0.entities.contains(name) })
        }
        #expect(layout.table(holding: "Draft")?.name == "ZNOTE")
        layout.entities.removeAll { $0.name == "Alpha" }
        layout.tables.removeAll { $0.rootEntity == "Note" }
        #expect(layout.entity(named: "Alpha") == nil)
        #expect(layout.entity(named: "Zed") == layout.entities.first { $0.name == "Zed" })
        #expect(layout.table(holding: "Draft") == nil)
        #expect(layout.table(holding: "Zed")?.name == "ZZED")
    }

    /// Each to-one's inverse is found however many relationships an entity has (an ordered
    /// to-many inverse gives the to-one its order column).
    @Test func inversesOfManyToOnes() {
        let count = 300
        var owner = E("Owner")
        var item = E("Item")
        for index in 0..<count {
            item.relationships.append(Relationship(name: "r\(index)", destinationEntity: "Owner", inverseName: "items\(index)", inverseEntity: "Owner",
                                                   isToMany: false, isOrdered: false, isOptional: true, maxCount: 1, deletionRule: .nullify))
            owner.relationships.append(Relationship(name: "items\(index)", destinationEntity: "Item", inverseName: "r\(index)", inverseEntity: "Item",
                                                    isToMany: true, isOrdered: index.isMultiple(of: 2), isOptional: true, maxCount: 0, deletionRule: .nullify))
        }
        let layout = StoreLayout(model: M(item, owner))
        let columns = layout.table(holding: "Item")?.columns.map(\.name) ?? []
        #expect(columns.filter { $0.hasPrefix("Z_FOK_") }.count == count / 2)
        #expect(columns.contains("Z_FOK_R0") && !columns.contains("Z_FOK_R1"))
    }
}
