import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanHashing
@testable import ChainPlanReaders
@testable import ChainPlanSwiftSource

/// Each SwiftData → Core Data mapping rule (reference §2–§5): a small `@Model` source must hash
/// exactly as the equivalent `.xcdatamodel` entity XML does (the XML path is checked against
/// Apple-written hashes by the corpus tests), and mark unverified exactly the [open] rules.
struct SwiftDataMappingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Declarations inside `enum SchemaV1`; `models` lists `Thing` (and `models`).
        var swift: String
        var models: [String] = ["Thing"]
        /// The equivalent entities as model XML.
        var xml: String
        /// Whether some hash must be marked unverified.
        var unverified: Bool = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "scalar types", swift: """
            @Model final class Thing {
                var s: String
                var b: Bool
                var i: Int
                var i64: Int64
                var i32: Int32
                var i16: Int16
                var d: Double
                var f: Float
                var dec: Decimal
                var date: Date
                var id: UUID
                var url: URL
                var data: Data
                var interval: TimeInterval
            }
            """, xml: """
            <entity name="Thing"><attribute name="s" attributeType="String"/><attribute name="b" attributeType="Boolean"/>
            <attribute name="i" attributeType="Integer 64"/><attribute name="i64" attributeType="Integer 64"/>
            <attribute name="i32" attributeType="Integer 32"/><attribute name="i16" attributeType="Integer 16"/>
            <attribute name="d" attributeType="Double"/><attribute name="f" attributeType="Float"/>
            <attribute name="dec" attributeType="Decimal"/><attribute name="date" attributeType="Date"/>
            <attribute name="id" attributeType="UUID"/><attribute name="url" attributeType="URI"/>
            <attribute name="data" attributeType="Binary"/><attribute name="interval" attributeType="Double"/></entity>
            """),
        Case(name: "optionality from ?, Optional<T> and T!", swift: """
            @Model final class Thing {
                var a: String?
                var b: Optional<Int>
                var c: Date!
                let d: UUID
            }
            """, xml: """
            <entity name="Thing"><attribute name="a" optional="YES" attributeType="String"/><attribute name="b" optional="YES" attributeType="Integer 64"/>
            <attribute name="c" optional="YES" attributeType="Date"/><attribute name="d" attributeType="UUID"/></entity>
            """),
        Case(name: "types from literals and known initializers", swift: """
            @Model final class Thing {
                var n = "1"
                var count = 0
                var ratio = 1.5
                var done = false
                var below = -3
                let id = UUID()
                var created = Date()
                var seen = Date.now
            }
            """, xml: """
            <entity name="Thing"><attribute name="n" attributeType="String"/><attribute name="count" attributeType="Integer 64"/>
            <attribute name="ratio" attributeType="Double"/><attribute name="done" attributeType="Boolean"/>
            <attribute name="below" attributeType="Integer 64"/><attribute name="id" attributeType="UUID"/>
            <attribute name="created" attributeType="Date"/><attribute name="seen" attributeType="Date"/></entity>
            """),
        Case(name: "defaults are not hashed", swift: """
            @Model final class Thing {
                var title: String = "Untitled"
                var rank: Int = 7
            }
            """, xml: """
            <entity name="Thing"><attribute name="title" attributeType="String"/><attribute name="rank" attributeType="Integer 64"/></entity>
            """),
        Case(name: "@Transient, computed and static properties are left out", swift: """
            @Model final class Thing {
                var kept: String = ""
                @Transient var cache: Int = 0
                var computed: Int { 1 }
                var getter: Int { get { 2 } }
                static var shared = 0
            }
            """, xml: """
            <entity name="Thing"><attribute name="kept" attributeType="String"/></entity>
            """),
        Case(name: ".unique makes a one-name constraint", swift: """
            @Model final class Thing {
                @Attribute(.unique) var id: UUID
                var name: String
            }
            """, xml: """
            <entity name="Thing"><attribute name="id" attributeType="UUID"/><attribute name="name" attributeType="String"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints></entity>
            """),
        Case(name: "#Unique lists are constraints", swift: """
            @Model final class Thing {
                #Unique<Thing>([\\.first, \\.last], [\\.code])
                var first: String
                var last: String
                var code: String
            }
            """, xml: """
            <entity name="Thing"><attribute name="first" attributeType="String"/><attribute name="last" attributeType="String"/>
            <attribute name="code" attributeType="String"/><uniquenessConstraints>
            <uniquenessConstraint><constraint value="first"/><constraint value="last"/></uniquenessConstraint>
            <uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>
            """, unverified: true),
        Case(name: "#Index is not hashed", swift: """
            @Model final class Thing {
                #Index<Thing>([\\.name])
                var name: String
            }
            """, xml: """
            <entity name="Thing"><attribute name="name" attributeType="String"/></entity>
            """),
        Case(name: "external storage and preserve value on deletion", swift: """
            @Model final class Thing {
                @Attribute(.externalStorage) var photo: Data?
                @Attribute(.preserveValueOnDeletion) var key: String
                @Attribute(.spotlight, .allowsCloudEncryption) var text: String
            }
            """, xml: """
            <entity name="Thing"><attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="key" attributeType="String" preserveAfterDeletion="YES"/><attribute name="text" attributeType="String"/></entity>
            """),
        Case(name: "ephemeral is transient and leaves the hash", swift: """
            @Model final class Thing {
                @Attribute(.ephemeral) var draft: String?
                var kept: String
            }
            """, xml: """
            <entity name="Thing"><attribute name="draft" optional="YES" transient="YES" attributeType="String"/><attribute name="kept" attributeType="String"/></entity>
            """),
        Case(name: "transformable", swift: """
            @Model final class Thing {
                @Attribute(.transformable(by: ColorTransformer.self)) var color: UIColor?
            }
            """, xml: """
            <entity name="Thing"><attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="ColorTransformer"/></entity>
            """),
        Case(name: "originalName is not hashed; hashModifier is", swift: """
            @Model final class Thing {
                @Attribute(originalName: "title") var name: String
                @Attribute(hashModifier: "v2") var size: Int
            }
            """, xml: """
            <entity name="Thing"><attribute name="name" attributeType="String" elementID="title"/>
            <attribute name="size" attributeType="Integer 64" versionHashModifier="v2"/></entity>
            """, unverified: true),
        Case(name: "implicit inverse: to-one both ways", swift: """
            @Model final class Thing { var other: Other? }
            @Model final class Other { var thing: Thing? }
            """, xml: """
            <entity name="Thing"><relationship name="other" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Other" inverseName="thing" inverseEntity="Other"/></entity>
            <entity name="Other"><relationship name="thing" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing" inverseName="other" inverseEntity="Thing"/></entity>
            """),
        Case(name: "implicit inverse: to-many and to-one, the graph closed over relationships", swift: """
            @Model final class Thing { var parts: [Part] = [] }
            @Model final class Part { var thing: Thing? }
            """, xml: """
            <entity name="Thing"><relationship name="parts" toMany="YES" deletionRule="Nullify" destinationEntity="Part" inverseName="thing" inverseEntity="Part"/></entity>
            <entity name="Part"><relationship name="thing" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing" inverseName="parts" inverseEntity="Thing"/></entity>
            """),
        Case(name: "no inverse when the other side has no candidate", swift: """
            @Model final class Thing { var owner: Owner? }
            @Model final class Owner { var name: String = "" }
            """, xml: """
            <entity name="Thing"><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/></entity>
            <entity name="Owner"><attribute name="name" attributeType="String"/></entity>
            """),
        Case(name: "two candidates on one side: no inverse, unverified", swift: """
            @Model final class Thing { var first: Other?; var second: Other? }
            @Model final class Other { var thing: Thing? }
            """, xml: """
            <entity name="Thing"><relationship name="first" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Other"/>
            <relationship name="second" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Other"/></entity>
            <entity name="Other"><relationship name="thing" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing"/></entity>
            """, unverified: true),
        Case(name: "explicit inverse names both sides", swift: """
            @Model final class Thing {
                @Relationship(deleteRule: .cascade, inverse: \\Part.owner) var parts: [Part]? = []
                var spare: Part?
            }
            @Model final class Part { var owner: Thing? }
            """, xml: """
            <entity name="Thing"><relationship name="parts" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Part" inverseName="owner" inverseEntity="Part"/>
            <relationship name="spare" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Part"/></entity>
            <entity name="Part"><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing" inverseName="parts" inverseEntity="Thing"/></entity>
            """, unverified: true),
        Case(name: "model counts on a to-many", swift: """
            @Model final class Thing {
                @Relationship(minimumModelCount: 1, maximumModelCount: 5) var parts: [Part] = []
            }
            @Model final class Part { var name: String = "" }
            """, xml: """
            <entity name="Thing"><relationship name="parts" toMany="YES" minCount="1" maxCount="5" deletionRule="Nullify" destinationEntity="Part"/></entity>
            <entity name="Part"><attribute name="name" attributeType="String"/></entity>
            """, unverified: true),
        Case(name: "a non-optional to-one: min 0, max 1, required", swift: """
            @Model final class Thing { var owner: Owner }
            @Model final class Owner { var name: String = "" }
            """, xml: """
            <entity name="Thing"><relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/></entity>
            <entity name="Owner"><attribute name="name" attributeType="String"/></entity>
            """, unverified: true),
        Case(name: "delete rules are not hashed", swift: """
            @Model final class Thing {
                @Relationship(deleteRule: .deny) var a: Other?
            }
            @Model final class Other { var name: String = "" }
            """, xml: """
            <entity name="Thing"><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Other"/></entity>
            <entity name="Other"><attribute name="name" attributeType="String"/></entity>
            """),
        Case(name: "unsettled integer buckets are unverified", swift: """
            @Model final class Thing { var small: UInt8 }
            """, xml: """
            <entity name="Thing"><attribute name="small" attributeType="Integer 16"/></entity>
            """, unverified: true),
    ]

    @Test(arguments: cases)
    func hashesAsTheEquivalentXML(_ c: Case) throws {
        let project = SwiftDataTestSupport.read([("Models.swift", SwiftDataTestSupport.schema(c.swift, models: c.models))])
        let version = try #require(project.versions.first)
        let model = try #require(version.model, "\(version.failure ?? "") \(project.diagnostics.map(\.message))")
        let expected = try #require(SwiftDataTestSupport.xmlHashes(c.xml))
        #expect(SwiftDataTestSupport.entityHashes(model) == expected)
        #expect(!version.unverified.isEmpty == c.unverified, "\(version.unverified)")
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics.map(\.message))")
    }

    /// Inputs the hash does not see but the model keeps (reference §4, §5).
    @Test func unhashedValuesAreKept() throws {
        let source = SwiftDataTestSupport.schema("""
            @Model final class Thing {
                @Attribute(originalName: "title") var name: String = "Untitled"
                @Attribute(.transformable(by: "ColorTransformer")) var color: UIColor?
                @Relationship(deleteRule: .cascade) var parts: [Part] = []
            }
            @Model final class Part { var thing: Thing? }
            """)
        let model = try #require(SwiftDataTestSupport.version(source)?.model)
        let thing = try #require(model.entity(named: "Thing"))
        #expect(thing.attributes.first { $0.name == "name" }?.renamingIdentifier == "title")
        #expect(thing.attributes.first { $0.name == "name" }?.defaultValueString == "Untitled")
        #expect(thing.attributes.first { $0.name == "color" }?.valueTransformerName == "ColorTransformer")
        #expect(thing.relationships.first?.deletionRule == .cascade)
        #expect(model.entity(named: "Part")?.relationships.first?.deletionRule == .nullify)
        #expect(model.versionIdentifier == "1.0.0")
    }

    /// A Codable struct is a composite attribute (unverified: no ground truth for composites).
    @Test func codableStructIsAComposite() throws {
        let source = SwiftDataTestSupport.schema("""
            @Model final class Thing { var address: Address? }
            struct Address: Codable { var street: String; var number: Int? }
            """)
        let version = try #require(SwiftDataTestSupport.version(source))
        let model = try #require(version.model)
        let attribute = try #require(model.entity(named: "Thing")?.attributes.first)
        #expect(attribute.type == .composite)
        #expect(model.composites.first?.attributes.map(\.name) == ["street", "number"])
        #expect(version.unverified.contains { $0.contains("composite") })
    }

    /// `@Attribute(.codable)`: the payload's shape is outside the model (binary data here, the
    /// type being open) and kept beside it, nested structs flattened.
    @Test func codablePayloadIsKeptOutsideTheModel() throws {
        let source = SwiftDataTestSupport.schema("""
            @Model final class Thing { @Attribute(.codable) var address: Address? }
            struct Address: Codable { var street: String; var geo: Geo }
            struct Geo: Codable { var latitude: Double? }
            """)
        let version = try #require(SwiftDataTestSupport.version(source))
        let model = try #require(version.model)
        let attribute = try #require(model.entity(named: "Thing")?.attributes.first)
        #expect(attribute.type == .binary)
        #expect(attribute.isOptional)
        #expect(model.composites.isEmpty)
        #expect(version.codablePayloads.map(\.elements) == [["Address", "street: String", "geo: Geo", "geo.latitude: Double?"]])
        #expect(version.codablePayloads.first?.entity == "Thing")
        #expect(version.unverified.contains { $0.contains(".codable") })
        #expect(!version.unverified.contains { $0.contains("composite") })
    }

    /// A `.codable` payload of another module's type, or holding a class, is opaque: the
    /// version still gets its model (the payload is not mapped); an enum's shape is its cases.
    @Test func codablePayloadOfAnyType() throws {
        let source = SwiftDataTestSupport.schema("""
            @Model final class Thing {
                @Attribute(.codable) var place: MKMapItem?
                @Attribute(.codable) var box: Box?
                @Attribute(.codable) var kind: Kind = .a
            }
            struct Box: Codable { var owner: Owner? }
            final class Owner: Codable {}
            enum Kind: String, Codable { case a = "A", b }
            """)
        let version = try #require(SwiftDataTestSupport.version(source))
        #expect(version.model?.entity(named: "Thing")?.attributes.map(\.type) == [.binary, .binary, .binary])
        #expect(version.codablePayloads.map(\.elements) == [["MKMapItem"], ["Box", "owner: Owner?"], ["Kind", "case a = \"A\"", "case b"]])
    }

    /// SwiftData's fatal shapes are CP603 findings, and the version gets no model.
    @Test(arguments: [
        ("@Model final class Thing { var description: String = \"\" }", "description"),
        ("@Model final class Thing { var tags: [Tag] = [] }\nstruct Tag { var name: String }", "non-codable"),
        ("@Model final class Thing { @Attribute(.unique) var parts: [Part] = [] }\n@Model final class Part { var name = \"\" }", "unique to-many"),
        ("@Model final class Thing { var box: Box? }\nstruct Box: Codable { var owner: Owner? }\nfinal class Owner {}", "class in struct"),
    ])
    func fatalShapes(_ body: String, _ label: String) throws {
        let project = SwiftDataTestSupport.read([("Models.swift", SwiftDataTestSupport.schema(body))])
        #expect(project.diagnostics.contains { $0.code == .invalidSwiftDataModel }, "\(label): \(project.diagnostics.map(\.message))")
        let version = try #require(project.versions.first, "\(label)")
        #expect(version.model == nil, "\(label)")
    }
}
