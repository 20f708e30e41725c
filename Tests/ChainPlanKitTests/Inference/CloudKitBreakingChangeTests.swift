import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanInference
@testable import ChainPlanReaders

/// CP213: what CloudKit's production schema refuses, per step, for mirrored entities only.
struct CloudKitBreakingChangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The entities of each version, inside `<model>`; `cloud` marks where CloudKit is on.
        var source: String
        var destination: String
        var cloud: Cloud = .model
        /// Words each finding's message holds, one entry per finding, in order.
        var expected: [String]
        /// Words some finding's message holds.
        var anywhere: [String] = []
        var testDescription: String { name }
    }

    enum Cloud: Sendable {
        /// `usedWithCloudKit="YES"` on `<model>` (the Default configuration).
        case model
        /// A configuration "Cloud" with these members, marked for CloudKit.
        case configuration([String])
        case none
    }

    static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#

    static let cases: [Case] = [
        Case(name: "an attribute removed", source: note,
             destination: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
             expected: ["attribute 'Note.body' is removed ("]),
        Case(name: "an attribute renamed with a renaming identifier", source: note,
             destination: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="text" optional="YES" attributeType="String" elementID="body"/></entity>"#,
             expected: ["attribute 'Note.body' is removed (renamed to 'text')"]),
        Case(name: "an attribute made transient", source: note,
             destination: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" transient="YES" attributeType="String"/></entity>"#,
             expected: ["attribute 'Note.body' is removed"]),
        Case(name: "a type change", source: note,
             destination: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="Binary"/></entity>"#,
             expected: ["changes type from String to Binary"]),
        Case(name: "made mandatory", source: note,
             destination: #"<entity name="Note"><attribute name="title" attributeType="String" defaultValueString=""/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
             expected: ["attribute 'Note.title' becomes mandatory"]),
        Case(name: "an attribute becomes a relationship",
             source: #"<entity name="Note"><attribute name="folder" optional="YES" attributeType="String"/></entity><entity name="Folder"/>"#,
             destination: #"<entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity><entity name="Folder"/>"#,
             expected: ["attribute 'Note.folder' becomes a relationship"]),
        Case(name: "a relationship removed",
             source: #"<entity name="Note"><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity><entity name="Folder"/>"#,
             destination: #"<entity name="Note"/><entity name="Folder"/>"#,
             expected: ["relationship 'Note.folder' is removed"]),
        Case(name: "an entity removed", source: note + #"<entity name="Tag"/>"#, destination: note,
             expected: ["entity 'Tag' is removed ('V1' → 'V2'), but the entity is mirrored to CloudKit"], anywhere: ["'CD_Tag' stays"]),
        Case(name: "an entity renamed", source: note + #"<entity name="Tag"/>"#, destination: note + #"<entity name="Label" elementID="Tag"/>"#,
             expected: ["entity 'Tag' is removed (renamed to 'Label')"]),
        Case(name: "an inherited attribute removed from the parent",
             source: #"<entity name="Item" isAbstract="YES"><attribute name="created" optional="YES" attributeType="Date"/></entity><entity name="Note" parentEntity="Item"/>"#,
             destination: #"<entity name="Item" isAbstract="YES"/><entity name="Note" parentEntity="Item"/>"#,
             expected: ["attribute 'Item.created' is removed"]),
        Case(name: "an attribute moved up to the parent",
             source: #"<entity name="Item" isAbstract="YES"/><entity name="Note" parentEntity="Item"><attribute name="created" optional="YES" attributeType="Date"/></entity>"#,
             destination: #"<entity name="Item" isAbstract="YES"><attribute name="created" optional="YES" attributeType="Date"/></entity><entity name="Note" parentEntity="Item"/>"#,
             expected: []),
        Case(name: "optional properties and entities added", source: note,
             destination: note.replacingOccurrences(of: "</entity>", with: #"<attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/></entity>"#)
                + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
             expected: []),
        Case(name: "made optional", source: #"<entity name="Note"><attribute name="title" attributeType="String" defaultValueString=""/></entity>"#,
             destination: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#, expected: []),
        Case(name: "not mirrored", source: note, destination: #"<entity name="Note"/>"#, cloud: .none, expected: []),
        Case(name: "a mirrored configuration's entity", source: note + #"<entity name="Draft"><attribute name="text" optional="YES" attributeType="String"/></entity>"#,
             destination: #"<entity name="Note"/><entity name="Draft"/>"#, cloud: .configuration(["Note"]),
             expected: ["attribute 'Note.title' is removed", "attribute 'Note.body' is removed"]),
    ]

    static func model(_ entities: String, _ cloud: Cloud) -> ObjectModel? {
        var body = entities
        var flag = ""
        switch cloud {
        case .model: flag = #" usedWithCloudKit="YES""#
        case .configuration(let members):
            body += #"<configuration name="Cloud" usedWithCloudKit="YES">"# + members.map { #"<memberEntity name="\#($0)"/>"# }.joined() + "</configuration>"
        case .none: break
        }
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\"\(flag)>\n\(body)\n</model>\n"
        return ModelContentsParser().parse(Data(xml.utf8), file: "contents", version: "V").model
    }

    @Test(arguments: cases)
    func findings(_ c: Case) throws {
        let source = try #require(Self.model(c.source, c.cloud))
        let destination = try #require(Self.model(c.destination, c.cloud))
        let found = CloudKitBreakingChange.findings(source: source, destination: destination, from: "V1", to: "V2",
                                                    sourceFile: "V1/contents", destinationFile: "V2/contents")
        try #require(found.count == c.expected.count, "\(found.map(\.message))")
        for (finding, words) in zip(found, c.expected) {
            #expect(finding.code == .cloudKitBreakingChange)
            #expect(finding.message.contains(words), "\(finding.message)")
            #expect(finding.versions == ["V1", "V2"])
        }
        for words in c.anywhere {
            #expect(found.contains { $0.message.contains(words) }, "\(words)")
        }
    }

    @Test func theFlagsAreRead() throws {
        #expect(try #require(Self.model(Self.note, .model)).cloudKitEntities == ["Note"])
        #expect(try #require(Self.model(Self.note, .configuration(["Note", "Gone"]))).cloudKitEntities == ["Note", "Gone"])
        #expect(try #require(Self.model(Self.note, .none)).cloudKitEntities.isEmpty)
    }

    /// Locations: a removal at the source's declaration, a change at the destination's.
    @Test func locations() throws {
        let source = try #require(Self.model(Self.note, .model))
        let destination = try #require(Self.model(#"<entity name="Note"><attribute name="title" optional="YES" attributeType="Binary"/></entity>"#, .model))
        let found = CloudKitBreakingChange.findings(source: source, destination: destination, from: "V1", to: "V2",
                                                    sourceFile: "V1/contents", destinationFile: "V2/contents")
        #expect(found.map { $0.location?.file } == ["V2/contents", "V1/contents"])
        #expect(found.allSatisfy { $0.location?.line == 3 })
    }
}
