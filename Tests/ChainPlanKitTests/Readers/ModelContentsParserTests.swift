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

@Suite("ModelContentsParser: field mapping")
struct ModelContentsFieldTests {
    static let file = "AllFields.xcdatamodeld/AllFields.xcdatamodel/contents"

    static func parseFixture() throws -> ObjectModel {
        let url = ModelTestSupport.fixtures.appendingPathComponent(file)
        let result = ModelContentsParser().parse(try Data(contentsOf: url), file: file, version: "AllFields")
        #expect(result.diagnostics == [])
        return try #require(result.model)
    }

    @Test("model attributes")
    func modelAttributes() throws {
        let model = try Self.parseFixture()
        #expect(model.versionIdentifier == "fields-1")
        #expect(model.lastSavedToolsVersion == "22522")
        #expect(model.systemVersion == "23C71")
        #expect(model.minimumToolsVersion == "Automatic")
        #expect(model.sourceLanguage == "Swift")
        #expect(model.entities.map(\.name) == ["Item", "Book", "Owner", "Tag"])
    }

    @Test("an empty userDefinedModelVersionIdentifier is nil")
    func emptyIdentifier() throws {
        let result = ModelTestSupport.parse(#"<model userDefinedModelVersionIdentifier=""><entity name="A"/></model>"#)
        #expect(try #require(result.model).versionIdentifier == nil)
        let absent = ModelTestSupport.parse(#"<model><entity name="A"/></model>"#)
        #expect(try #require(absent.model).versionIdentifier == nil)
    }

    @Test("entity fields")
    func entityFields() throws {
        let model = try Self.parseFixture()
        let item = try #require(model.entity(named: "Item"))
        #expect(item.line == 3)
        #expect(item.representedClassName == ".Item")
        #expect(item.isAbstract)
        #expect(item.renamingIdentifier == "OldItem")
        #expect(item.versionHashModifier == "itemHash")
        #expect(item.codeGenerationType == "class")
        #expect(item.parentEntity == nil)
        #expect(item.userInfo == [UserInfoEntry(key: "entityKey", value: "entityValue")])
        #expect(item.uniquenessConstraints == [["identifier"], ["title", "owner"]])
        #expect(item.compoundIndexes == [["title", "created"]])
        #expect(item.fetchIndexes == [FetchIndex(name: "byTitle", elements: [
            FetchIndex.Element(property: "title", expression: nil, type: "Binary", ascending: true),
            FetchIndex.Element(property: nil, expression: "count * 2", type: "RTree", ascending: false),
        ])])
        #expect(item.column == 5)
        #expect(item.fetchedProperties.map(\.column) == [9])
        #expect(item.fetchedProperties.map { var fetched = $0; fetched.column = nil; return fetched } == [
            FetchedProperty(name: "recentTags", entity: "Tag", predicate: "name BEGINSWITH \"a\"", line: 25),
        ])
        #expect(item.attributes.map(\.name) == ["title", "count", "created", "blob", "colour", "tagCount", "scratch", "place", "identifier"])
        #expect(item.attributes.map(\.line) == [4, 5, 6, 7, 8, 9, 10, 11, 12])
        #expect(item.relationships.map(\.name) == ["owner", "tags"])

        let book = try #require(model.entity(named: "Book"))
        #expect(book.parentEntity == "Item")
        #expect(!book.isAbstract)
        #expect(book.line == 51)
        #expect(book.renamingIdentifier == nil)
        #expect(book.codeGenerationType == nil)
    }

    @Test("attribute fields")
    func attributeFields() throws {
        let item = try #require(try Self.parseFixture().entity(named: "Item"))
        // Columns are checked once here; the field comparisons below leave them out.
        #expect(item.attributes.map(\.column) == Array(repeating: 9, count: item.attributes.count))
        let attributes = Dictionary(uniqueKeysWithValues: item.attributes.map { attribute in
            var withoutColumn = attribute
            withoutColumn.column = nil
            return (attribute.name, withoutColumn)
        })

        let title = try #require(attributes["title"])
        #expect(title == Attribute(
            name: "title", type: .string, isOptional: true, isIndexed: true, defaultValueString: "Untitled",
            minValueString: "1", maxValueString: "200", regularExpressionString: "[A-Z].*",
            renamingIdentifier: "name", versionHashModifier: "titleHash", line: 4))

        let count = try #require(attributes["count"])
        #expect(count == Attribute(name: "count", type: .integer64, isOptional: false, defaultValueString: "0",
                                   usesScalarValueType: true, line: 5))

        let created = try #require(attributes["created"])
        #expect(created == Attribute(name: "created", type: .date, defaultDateTimeInterval: "725328000",
                                     minDateTimeInterval: "0", maxDateTimeInterval: "978307200",
                                     usesScalarValueType: false, line: 6))
        #expect(created.hasDefaultValue)

        #expect(attributes["blob"] == Attribute(name: "blob", type: .binary, isOptional: true,
                                                allowsExternalBinaryDataStorage: true, line: 7))
        #expect(attributes["colour"] == Attribute(name: "colour", type: .transformable, isOptional: true,
                                                  valueTransformerName: "NSSecureUnarchiveFromData",
                                                  customClassName: "UIColor", line: 8))
        #expect(attributes["tagCount"] == Attribute(name: "tagCount", type: .integer32, isOptional: true, isDerived: true,
                                                    derivationExpression: "tags.@count", usesScalarValueType: true, line: 9))
        // No attributeType: Undefined; `renamingIdentifier` XML attribute as the fallback.
        #expect(attributes["scratch"] == Attribute(name: "scratch", type: .undefined, isOptional: true, isTransient: true,
                                                   renamingIdentifier: "oldScratch", line: 10))
        #expect(attributes["place"] == Attribute(name: "place", type: .composite, isOptional: true,
                                                 compositeName: "Location", line: 11))
        let identifier = try #require(attributes["identifier"])
        #expect(identifier.type == .uuid)
        #expect(!identifier.isOptional)
        #expect(identifier.userInfo == [UserInfoEntry(key: "spDisableSync", value: "value"),
                                        UserInfoEntry(key: "note", value: "a & b")])
    }

    @Test("relationship fields")
    func relationshipFields() throws {
        let model = try Self.parseFixture()
        var item = try #require(model.entity(named: "Item"))
        #expect(item.relationships.map(\.column) == [9, 9])
        for index in item.relationships.indices { item.relationships[index].column = nil }
        var owner = Relationship(
            name: "owner", destinationEntity: "Owner", inverseName: "items", inverseEntity: "Owner",
            isToMany: false, isOrdered: false, isOptional: false, isTransient: false, minCount: 0, maxCount: 1,
            deletionRule: .cascade, renamingIdentifier: "holder", versionHashModifier: "ownerHash", line: 19)
        owner.hasWrittenMaxCount = true
        #expect(item.relationships[0] == owner)
        var tags = Relationship(
            name: "tags", destinationEntity: "Tag", isToMany: true, isOrdered: true, isOptional: true, isTransient: true,
            minCount: 1, maxCount: 5, deletionRule: .deny, userInfo: [UserInfoEntry(key: "kind", value: "many")], line: 20)
        (tags.hasWrittenMinCount, tags.hasWrittenMaxCount) = (true, true)
        #expect(item.relationships[1] == tags)
        let ownerEntity = try #require(model.entity(named: "Owner"))
        #expect(ownerEntity.relationships.first?.deletionRule == .noAction)
        #expect(ownerEntity.relationships.first?.isToMany == true)
        #expect(ownerEntity.relationships.first?.maxCount == 0)
        // An unknown deletion rule reads as Nullify, Core Data's default.
        let tag = try #require(model.entity(named: "Tag"))
        #expect(tag.relationships.first?.deletionRule == .nullify)
        #expect(tag.attributes.first?.defaultValueString == "")
    }

    @Test("fetch requests, configurations and composites")
    func modelLevelElements() throws {
        let model = try Self.parseFixture()
        #expect(model.fetchRequests == [FetchRequestTemplate(name: "AllBooks", entity: "Book", predicate: "isbn != nil")])
        #expect(model.configurations == [Configuration(name: "Cloud", memberEntities: ["Item", "Tag"])])
        #expect(model.composites.count == 1)
        let location = try #require(model.composites.first)
        #expect(location.name == "Location")
        #expect(location.attributes == [
            Attribute(name: "latitude", type: .double, defaultValueString: "0.0", usesScalarValueType: true,
                      userInfo: [UserInfoEntry(key: "unit", value: "degrees")], line: 67),
            Attribute(name: "label", type: .string, isOptional: true, line: 72),
        ])
        // Composite members are not entity attributes.
        #expect(!model.entities.contains { $0.attributes.contains { $0.name == "latitude" } })
    }

    @Test("unknown XML attributes and elements are ignored")
    func unknownIgnored() throws {
        let text = ModelTestSupport.model("""
            <entity name="A" newFlag="YES">
                <attribute name="x" attributeType="String" futureThing="1"><newChild><attribute name="nested" attributeType="String"/></newChild></attribute>
                <newElement name="n"><attribute name="hidden" attributeType="String"/></newElement>
            </entity>
            <newTopLevel><entity name="Hidden"/></newTopLevel>
            """)
        let model = try #require(ModelTestSupport.parse(text).model)
        #expect(model.entities.map(\.name) == ["A"])
        #expect(model.entities[0].attributes.map(\.name) == ["x"])
    }

    @Test("attribute types", arguments: [
        ("Undefined", AttributeType.undefined), ("Integer 16", .integer16), ("Integer 32", .integer32),
        ("Integer 64", .integer64), ("Decimal", .decimal), ("Double", .double), ("Float", .float),
        ("String", .string), ("Boolean", .boolean), ("Date", .date), ("Binary", .binary),
        ("Transformable", .transformable), ("UUID", .uuid), ("URI", .uri), ("ObjectID", .objectID),
        ("Composite", .composite), ("Quantum", .other("Quantum")),
    ])
    func attributeTypes(_ spelling: String, _ type: AttributeType) throws {
        let text = ModelTestSupport.model(#"<entity name="A"><attribute name="x" attributeType="\#(spelling)"/></entity>"#)
        let model = try #require(ModelTestSupport.parse(text).model)
        #expect(model.entities.first?.attributes.first?.type == type)
    }
}

@Suite("ModelContentsParser: hostile and malformed XML")
struct ModelContentsHostileTests {
    /// Parses `text` and returns (code, line) of each finding; the model must be nil.
    static func findings(_ data: Data, maxBytes: Int = ModelContentsParser.defaultMaxBytes) -> [String] {
        let result = ModelContentsParser(maxBytes: maxBytes).parse(data, file: "bad/contents", version: "V")
        #expect(result.model == nil)
        #expect(result.diagnostics.allSatisfy { $0.location?.file == "bad/contents" && $0.versions == ["V"] })
        #expect(result.diagnostics.allSatisfy { $0.code.unusableInput && $0.severity == .error })
        return result.diagnostics.map { "\($0.code.rawValue):\($0.location?.line.map(String.init) ?? "-")" }
    }

    static func findings(_ text: String) -> [String] { findings(Data(text.utf8)) }

    @Test("DOCTYPE is refused before parsing")
    func doctype() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE model SYSTEM "file:///etc/passwd">
            <model><entity name="A"/></model>
            """
        #expect(Self.findings(text) == ["CP118:2"])
    }

    @Test("external entity (XXE) is refused")
    func externalEntity() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE model [
              <!ENTITY xxe SYSTEM "file:///etc/passwd">
            ]>
            <model><entity name="&xxe;"/></model>
            """
        #expect(Self.findings(text) == ["CP118:2", "CP118:3"])
    }

    @Test("billion laughs is refused")
    func billionLaughs() {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        text += "]>\n<model><entity name=\"&lol9;\"/></model>\n"
        #expect(Self.findings(text) == ["CP118:2", "CP118:3"])
    }

    @Test("lower-case doctype and entity declarations are refused too")
    func caseInsensitive() {
        #expect(Self.findings("<model>\n<!doctype x>\n</model>") == ["CP118:2"])
        #expect(Self.findings("<model>\n\n<!entity x \"y\">\n</model>") == ["CP118:3"])
    }

    @Test("truncated document")
    func truncated() {
        let text = ModelTestSupport.model(#"<entity name="A"><attribute name="x" attributeType="String"/></entity>"#)
        let cut = String(text.prefix(text.count - 20))
        #expect(Self.findings(cut) == ["CP118:3"])
        #expect(Self.findings("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n") == ["CP118:3"])
    }

    @Test("unterminated tag")
    func unterminatedTag() {
        #expect(Self.findings("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\"\n</model>\n") == ["CP118:4"])
    }

    @Test("wrong root element")
    func wrongRoot() {
        #expect(Self.findings("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n") == ["CP118:2"])
    }

    @Test("empty file and text that is not XML")
    func notXML() {
        #expect(Self.findings(Data()) == ["CP118:-"])
        #expect(Self.findings("hello") == ["CP118:1"])
        #expect(Self.findings("<?xml version=\"1.0\"?>\n") == ["CP118:1"])
    }

    @Test("invalid UTF-8, NUL bytes, UTF-16 and foreign encodings")
    func encodings() {
        var bytes = Array("<model>\n<entity name=\"".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"/>\n</model>".utf8)
        #expect(Self.findings(Data(bytes)) == ["CP118:2"])
        #expect(Self.findings(Data("<model>\n\n<entity name=\"A\u{0}\"/></model>".utf8)) == ["CP118:3"])
        let utf16 = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><model/>".data(using: .utf16) ?? Data()
        #expect(Self.findings(utf16) == ["CP118:1"])
        #expect(Self.findings("<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n<model/>") == ["CP118:1"])
        #expect(Self.findings("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<model/>") == ["CP118:1"])
        // UTF-8 with a byte order mark and non-ASCII names are fine.
        let fine = ModelContentsParser().parse(Data([0xEF, 0xBB, 0xBF] + Array("<model><entity name=\"Café\"/></model>".utf8)),
                                               file: "ok", version: nil)
        #expect(fine.model?.entities.map(\.name) == ["Café"])
    }

    @Test("elements without a name", arguments: [
        (#"<entity representedClassName="A"/>"#, 3),
        (#"<entity name=""/>"#, 3),
        ("<entity name=\"A\">\n<attribute attributeType=\"String\"/>\n</entity>", 4),
        ("<entity name=\"A\">\n\n<relationship destinationEntity=\"A\"/>\n</entity>", 5),
        (#"<composite><attribute name="x"/></composite>"#, 3),
        (#"<composite name="C"><attribute attributeType="String"/></composite>"#, 3),
    ])
    func missingName(_ body: String, _ line: Int) {
        #expect(Self.findings(ModelTestSupport.model(body)) == ["CP118:\(line)"])
    }

    @Test("every missing name is reported")
    func allMissingNames() {
        let text = ModelTestSupport.model("""
            <entity name="A">
                <attribute attributeType="String"/>
                <relationship destinationEntity="A"/>
            </entity>
            <entity/>
            """)
        #expect(Self.findings(text) == ["CP118:4", "CP118:5", "CP118:7"])
    }

    @Test("100,000 levels of nesting")
    func deepNesting() {
        var text = "<?xml version=\"1.0\"?>\n<model>"
        text.reserveCapacity(800_000)
        for _ in 0..<100_000 { text += "<a>" }
        for _ in 0..<100_000 { text += "</a>" }
        text += "</model>\n"
        #expect(Self.findings(text) == ["CP118:2"])
        // Deep nesting inside a known element is refused the same way.
        var inEntity = "<model>\n<entity name=\"A\">"
        for _ in 0..<100_000 { inEntity += "<userInfo>" }
        #expect(Self.findings(inEntity) == ["CP118:2"])
    }

    @Test("a 10 MB attribute value")
    func hugeAttribute() {
        let huge = String(repeating: "x", count: 10 << 20)
        let text = "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\" representedClassName=\"\(huge)\"/>\n</model>\n"
        // libxml2 refuses attribute values over 10,000,000 bytes without XML_PARSE_HUGE.
        #expect(Self.findings(text) == ["CP118:3"])
        let message = ModelContentsParser().parse(Data(text.utf8), file: "bad/contents", version: "V").diagnostics.first?.message
        #expect(message?.contains("too long") == true, "\(message?.prefix(300) ?? "")")
    }

    @Test("a 10 MB name")
    func hugeName() {
        let text = "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"" + String(repeating: "A", count: 10_000_001) + "\"/>\n</model>\n"
        let result = ModelContentsParser().parse(Data(text.utf8), file: "bad/contents", version: "V")
        #expect(result.model == nil)
        #expect(result.diagnostics.map(\.code) == [.malformedModelXML])
        #expect(result.diagnostics.first?.message.contains("too long") == true, "\(result.diagnostics.first?.message.prefix(300) ?? "")")
    }

    @Test("a large but allowed attribute value is kept")
    func largeAttribute() throws {
        let large = String(repeating: "y", count: 5 << 20)
        let text = "<model><entity name=\"A\" representedClassName=\"\(large)\"/></model>"
        let model = try #require(ModelTestSupport.parse(text).model)
        #expect(model.entities.first?.representedClassName?.count == 5 << 20)
    }

    @Test("the size limit is a parameter")
    func sizeLimit() {
        let text = ModelTestSupport.model(#"<entity name="A"/>"#)
        #expect(Self.findings(Data(text.utf8), maxBytes: 64) == ["CP118:-"])
        #expect(ModelContentsParser(maxBytes: 4096).parse(Data(text.utf8), file: "f").model != nil)
    }

    @Test("undeclared entity references and unbalanced tags")
    func otherMalformed() {
        #expect(Self.findings("<model>\n<entity name=\"&foo;\"/>\n</model>") == ["CP118:2"])
        #expect(Self.findings("<model>\n<entity name=\"A\">\n</model>\n") == ["CP118:3"])
        #expect(Self.findings("<model></model>\n<model></model>") == ["CP118:2"])
    }

    @Test("character references and CDATA are harmless")
    func harmlessMarkup() throws {
        let text = ModelTestSupport.model("""
            <!-- a comment -->
            <entity name="A&#x42;&#67;"><![CDATA[ignored]]></entity>
            """)
        let model = try #require(ModelTestSupport.parse(text).model)
        #expect(model.entities.map(\.name) == ["ABC"])
    }
}

@Suite("ModelContentsParser: columns")
struct ModelContentsColumnTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var body: String
        /// `Entity`, `Entity.property` → `line:column`.
        var expected: [String: String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "Xcode layout", body: """
            <entity name="A" syncable="YES">
                <attribute name="a" optional="YES" attributeType="String"/>
                <relationship name="b" optional="YES" maxCount="1" destinationEntity="A"/>
            </entity>
            """, expected: ["A": "3:1", "A.a": "4:5", "A.b": "5:5"]),
        Case(name: "several elements on one line", body: """
              <entity name="A"><attribute name="a" attributeType="String"/><attribute name="c" attributeType="String"/></entity><entity name="B"/>
            """, expected: ["A": "3:3", "A.a": "3:20", "A.c": "3:64", "B": "3:117"]),
        Case(name: "tabs and non-ASCII before the tag", body: "\t<entity name=\"É\"><attribute name=\"ü\" attributeType=\"String\"/></entity>",
             expected: ["É": "3:2", "É.ü": "3:19"]),
        Case(name: "a name that prefixes another element's", body: """
            <entity name="A"><attributeX/><attribute name="a" attributeType="String"/></entity>
            """, expected: ["A": "3:1", "A.a": "3:31"]),
        Case(name: "a start tag over two lines has no column", body: """
            <entity
                name="A"><attribute name="a" attributeType="String"/></entity>
            """, expected: ["A": "4:nil", "A.a": "4:14"]),
    ]

    @Test(arguments: cases)
    func elementColumns(_ c: Case) throws {
        let model = try #require(ModelTestSupport.parse(ModelTestSupport.model(c.body)).model)
        var found: [String: String] = [:]
        for entity in model.entities {
            found[entity.name] = "\(entity.line ?? 0):\(entity.column.map(String.init) ?? "nil")"
            for attribute in entity.attributes { found["\(entity.name).\(attribute.name)"] = "\(attribute.line ?? 0):\(attribute.column.map(String.init) ?? "nil")" }
            for relationship in entity.relationships {
                found["\(entity.name).\(relationship.name)"] = "\(relationship.line ?? 0):\(relationship.column.map(String.init) ?? "nil")"
            }
        }
        #expect(found == c.expected)
    }

    /// Findings in model files carry the element's column.
    @Test func diagnosticsHaveColumns() {
        let result = ModelTestSupport.parse(ModelTestSupport.model("""
            <entity name="A"/>
              <entity name="A"/>
            <entity name="B"><relationship name="r" destinationEntity="Nope"/></entity>
            """))
        let found = result.diagnostics.map { "\($0.code.rawValue) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
        #expect(found == ["CP115 4:3", "CP116 5:18"])
    }
}
