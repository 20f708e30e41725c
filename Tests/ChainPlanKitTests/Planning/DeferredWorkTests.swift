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

/// Reference §7.2, row by row, with the deferred lightweight migration option on and off: what
/// the in-place migrator does to each table (`SQLiteWork.analyze`).
struct DeferredWorkTests {
    static func model(_ entities: String, name: String) -> ObjectModel? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "\(name).xcdatamodel/contents", version: name).model
    }

    static func work(_ from: String, _ to: String, deferring: Bool, path: SQLiteWork.Path = .inPlace) -> SQLiteWork? {
        guard let source = model(from, name: "V1"), let destination = model(to, name: "V2") else { return nil }
        return SQLiteWork.analyze(source: source, destination: destination, path: path, deferring: deferring)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        var from: String
        var to: String
        var table: String
        /// Expected work with the option off and on.
        var off: SQLiteWork.Work
        var on: SQLiteWork.Work
        /// Columns the option defers (listed with the option on; off too when the rebuild is avoidable).
        var columns: [SQLiteWork.Column]
        var avoidable: Bool?
        var testDescription: String { title }
    }

    static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    static let noteWithoutBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let folderTree = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="SmartFolder" parentEntity="Folder"/>"#
    static let folderAlone = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#

    static let cases: [Case] = [
        Case(title: "attribute removed from an entity that still exists", from: note, to: noteWithoutBody, table: "ZNOTE",
             off: .rebuilt, on: .deferred, columns: [.init(column: "ZBODY", cause: .attributeRemoved)], avoidable: true),
        Case(title: "to-one whose destination loses its sub-entities (entity column goes)",
             from: folderTree + #"<entity name="Doc"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#,
             to: folderAlone + #"<entity name="Doc"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#,
             table: "ZDOC", off: .rebuilt, on: .deferred, columns: [.init(column: "Z2_FOLDER", cause: .entityColumnRemoved)], avoidable: true),
        Case(title: "to-one whose inverse to-many becomes unordered (order column goes)",
             from: #"<entity name="List"><relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="list" inverseEntity="Item"/></entity><entity name="Item"><relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items" inverseEntity="List"/></entity>"#,
             to: #"<entity name="List"><relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="list" inverseEntity="Item"/></entity><entity name="Item"><relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items" inverseEntity="List"/></entity>"#,
             table: "ZITEM", off: .rebuilt, on: .deferred, columns: [.init(column: "Z_FOK_LIST", cause: .orderColumnRemoved)], avoidable: true),
        Case(title: "removed to-one relationship: rebuilt even with the option (contradicts WWDC 2023)",
             from: folderAlone + #"<entity name="Doc"><attribute name="title" optional="YES" attributeType="String"/><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#,
             to: folderAlone + #"<entity name="Doc"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
             table: "ZDOC", off: .rebuilt, on: .rebuilt, columns: [], avoidable: false),
        Case(title: "another cause (a type change) rebuilds now and defers nothing for the table",
             from: #"<entity name="Note"><attribute name="rank" optional="YES" attributeType="Integer 32"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
             to: #"<entity name="Note"><attribute name="rank" optional="YES" attributeType="Double"/></entity>"#,
             table: "ZNOTE", off: .rebuilt, on: .rebuilt, columns: [.init(column: "ZBODY", cause: .attributeRemoved)], avoidable: false),
        Case(title: "a schema-equal type change (Integer 16 → 64) keeps the table", 
             from: #"<entity name="Note"><attribute name="rank" optional="YES" attributeType="Integer 16"/></entity>"#,
             to: #"<entity name="Note"><attribute name="rank" optional="YES" attributeType="Integer 64"/></entity>"#,
             table: "ZNOTE", off: .unchanged, on: .unchanged, columns: [], avoidable: nil),
        Case(title: "an added attribute is an ALTER", from: noteWithoutBody, to: note, table: "ZNOTE",
             off: .altered, on: .altered, columns: [], avoidable: nil),
        Case(title: "a removed root entity's table is dropped now, never deferred", from: noteWithoutBody + folderAlone, to: noteWithoutBody,
             table: "ZFOLDER", off: .dropped, on: .dropped, columns: [], avoidable: nil),
        Case(title: "a new entity's table is created", from: noteWithoutBody, to: noteWithoutBody + folderAlone,
             table: "ZFOLDER", off: .created, on: .created, columns: [], avoidable: nil),
        Case(title: "a removed many-to-many's join table is dropped now",
             from: #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/></entity><entity name="Tag"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>"#,
             to: #"<entity name="Note"/><entity name="Tag"/>"#,
             table: "Z_1TAGS", off: .dropped, on: .dropped, columns: [], avoidable: nil),
        Case(title: "a new many-to-many's join table is created now",
             from: #"<entity name="Note"/><entity name="Tag"/>"#,
             to: #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/></entity><entity name="Tag"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>"#,
             table: "Z_1TAGS", off: .created, on: .created, columns: [], avoidable: nil),
    ]

    @Test(arguments: cases, [false, true])
    func row(_ c: Case, deferring: Bool) throws {
        let work = try #require(Self.work(c.from, c.to, deferring: deferring))
        let table = try #require(work.tables.first { $0.table == c.table }, "\(work.tables.map(\.table))")
        #expect(table.work == (deferring ? c.on : c.off), "\(table)")
        if deferring || c.avoidable == true || !c.columns.isEmpty {
            #expect(table.columns == c.columns)
        }
        #expect(table.avoidableByDeferral == (deferring ? nil : c.avoidable))
        #expect(work.finishTasks == (deferring && c.on == .deferred ? 1 : 0))
        #expect(work.deferred == deferring)
    }

    @Test func removedToOneSaysWhyItIsNotDeferred() throws {
        let c = Self.cases[3]
        let work = try #require(Self.work(c.from, c.to, deferring: true))
        let reasons = work.tables.first { $0.table == "ZDOC" }?.reasons ?? []
        #expect(reasons.contains { $0.contains("rebuilt even with deferral") && $0.contains("WWDC") })
    }

    @Test func deferralOffNamesTheRebuildsItWouldAvoid() throws {
        let work = try #require(Self.work(Self.note, Self.noteWithoutBody, deferring: false))
        #expect(work.avoidableRebuilds.map(\.table) == ["ZNOTE"])
        #expect(work.textLines().last == "  deferral would avoid 1 rebuild: ZNOTE")
    }

    @Test func mappingModelStepIgnoresTheOption() throws {
        let work = try #require(Self.work(Self.note, Self.noteWithoutBody, deferring: true, path: .mappingModel))
        #expect(work.optionIgnored)
        #expect(work.tables.isEmpty && work.finishTasks == 0)
        #expect(work.textLines().first?.contains("option is ignored there") == true)
        let off = try #require(Self.work(Self.note, Self.noteWithoutBody, deferring: false, path: .mappingModel))
        #expect(!off.optionIgnored)
    }

    @Test func explainJSONCarriesTheWork() throws {
        let work = try #require(Self.work(Self.note, Self.noteWithoutBody, deferring: true))
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(work)) as? [String: Any])
        #expect(json["deferred"] as? Bool == true)
        #expect(json["path"] as? String == "in-place")
        #expect(json["finishTasks"] as? Int == 1)
        let tables = try #require(json["tables"] as? [[String: Any]])
        let note = try #require(tables.first { $0["table"] as? String == "ZNOTE" })
        #expect(note["entity"] as? String == "Note")
        #expect(note["work"] as? String == "deferred")
        #expect((note["columns"] as? [[String: String]]) == [["column": "ZBODY", "cause": "attribute-removed"]])
    }

    /// JSON lists only the tables whose work is not `unchanged`; `tableCount` counts them all.
    @Test func jsonOmitsUnchangedTables() throws {
        let work = try #require(Self.work(Self.note + Self.folderAlone, Self.noteWithoutBody + Self.folderAlone, deferring: true))
        #expect(work.tables.map(\.table) == ["ZFOLDER", "ZNOTE"] || work.tables.map(\.table) == ["ZNOTE", "ZFOLDER"])
        #expect(work.tables.first { $0.table == "ZFOLDER" }?.work == .unchanged)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(work)) as? [String: Any])
        let tables = try #require(json["tables"] as? [[String: Any]])
        #expect(tables.map { $0["table"] as? String } == ["ZNOTE"])
        #expect(json["tableCount"] as? Int == 2)
        let decoded = try RuleCatalogue.jsonDecoder().decode(SQLiteWork.self, from: JSONEncoder().encode(work))
        #expect(decoded.tables.map(\.table) == ["ZNOTE"] && decoded.finishTasks == 1)
    }
}
