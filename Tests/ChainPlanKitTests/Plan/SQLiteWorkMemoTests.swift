import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// The memo of planned tables (`SQLiteWorkMemo`) keyed by everything a table plan reads: a
/// two-table model (Note → Folder) is analysed from a base source, then from a source that
/// differs in one field the plan of ZNOTE reads. The memoised analysis must equal the
/// unmemoised one (so the key did not miss the field) and differ from the base's.
struct SQLiteWorkMemoTests {
    static func model(_ entities: String, name: String, lead: String = "") -> ObjectModel? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(lead)\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "\(name).xcdatamodel/contents", version: name).model
    }

    static func note(title: String = #"optional="NO" attributeType="String""#, body: Bool = false,
                     folder: String = #"optional="NO""#) -> String {
        #"<entity name="Note"><attribute name="title" "# + title + "/>"
            + (body ? #"<attribute name="body" optional="YES" attributeType="String"/>"# : "")
            + #"<relationship name="folder" "# + folder + #" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#
    }

    static let folder = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    static let smartFolder = #"<entity name="SmartFolder" parentEntity="Folder"/>"#
    static let destination = #"<entity name="Note"><attribute name="title" optional="NO" attributeType="String" defaultValueString="x"/>"#
        + #"<relationship name="folder" optional="NO" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"# + folder
    static let base = note() + folder

    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        var source: String
        var testDescription: String { title }
    }

    static let cases: [Case] = [
        Case(title: "source attribute optional (a mapped attribute's value): filled where NULL", source: note(title: #"optional="YES" attributeType="String""#) + folder),
        Case(title: "source attribute type (its column's SQL type)", source: note(title: #"optional="NO" attributeType="Integer 32""#) + folder),
        Case(title: "source column the destination lacks (the source table layout): deferrable", source: note(body: true) + folder),
        Case(title: "source to-one optional (a mapped relationship's value): becomes mandatory", source: note(folder: #"optional="YES""#) + folder),
        Case(title: "source entity number (an entity sorted before Note)", source: #"<entity name="Aardvark"/>"# + base),
        Case(title: "source to-one destination with sub-entities (its entity column)", source: base + smartFolder),
        Case(title: "source entity renamed (the entity mapping)", source: base.replacingOccurrences(of: #"entity name="Note""#, with: #"entity name="Memo""#)),
        Case(title: "source attribute's renaming identifier (the property pairing)",
             source: note(title: #"optional="NO" attributeType="String" elementID="heading""#) + folder),
    ]

    @Test(arguments: cases)
    func changedFieldChangesThePlan(_ example: Case) throws {
        let from = try #require(Self.model(Self.base, name: "V1"))
        let changed = try #require(Self.model(example.source, name: "V2"))
        let to = try #require(Self.model(Self.destination, name: "V3"))
        for deferring in [false, true] {
            let memo = SQLiteWorkMemo()
            let first = SQLiteWork.analyze(source: from, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: deferring, memo: memo)
            let second = SQLiteWork.analyze(source: changed, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: deferring, memo: memo)
            let unmemoised = SQLiteWork.analyze(source: changed, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: deferring)
            #expect(first == SQLiteWork.analyze(source: from, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: deferring))
            #expect(second == unmemoised, "deferring \(deferring)")
            #expect(first.tables.first { $0.table == "ZNOTE" } != second.tables.first { $0.table == "ZNOTE" }, "deferring \(deferring)")
        }
    }

    /// A memo's keys leave the destination out: it serves steps to the destination it first
    /// served, and a step to another destination is planned without it.
    @Test func anotherDestinationIsPlannedWithoutTheMemo() throws {
        let from = try #require(Self.model(Self.base, name: "V1"))
        let to = try #require(Self.model(Self.destination, name: "V3"))
        let other = try #require(Self.model(Self.destination.replacingOccurrences(of: #"defaultValueString="x""#, with: #"defaultValueString="y""#), name: "V4"))
        let memo = SQLiteWorkMemo()
        _ = SQLiteWork.analyze(source: from, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: true, memo: memo)
        let elsewhere = SQLiteWork.analyze(source: from, destination: other, layouts: nil, copied: [], path: .inPlace, deferring: true, memo: memo)
        #expect(memo.hits == 0)
        #expect(elsewhere == SQLiteWork.analyze(source: from, destination: other, layouts: nil, copied: [], path: .inPlace, deferring: true))
        #expect(memo.serves(to))
        #expect(!memo.serves(other))
    }

    /// Equal tables on other lines of the model file (positions are not read by a plan): a hit.
    @Test func equalTablesElsewhereInTheFileAreReused() throws {
        let from = try #require(Self.model(Self.base, name: "V1"))
        let moved = try #require(Self.model(Self.base, name: "V2", lead: "\n\n\n"))
        let to = try #require(Self.model(Self.destination, name: "V3"))
        let memo = SQLiteWorkMemo()
        let first = SQLiteWork.analyze(source: from, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: true, memo: memo)
        #expect(memo.hits == 0)
        let second = SQLiteWork.analyze(source: moved, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: true, memo: memo)
        #expect(memo.hits == 2)
        #expect(first == second)
        // The option is part of the key.
        let off = SQLiteWork.analyze(source: moved, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: false, memo: memo)
        #expect(memo.hits == 2)
        #expect(off == SQLiteWork.analyze(source: moved, destination: to, layouts: nil, copied: [], path: .inPlace, deferring: false))
    }
}
