import Crypto
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

/// One minimal model per hash rule (§1.2–§1.5), each expected hash assembled here byte by byte
/// from the reference's layout, independently of `VersionHasher`.
@Suite("Hash rules")
struct HashRuleTests {
    // The layout, spelled out.
    static func sha(_ parts: [Data]) -> Data { Data(SHA256.hash(data: parts.reduce(Data(), +))) }
    static func s(_ text: String) -> Data { Data(text.utf8) }
    static func u16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
    static func i32(_ value: Int32) -> Data {
        let raw = UInt32(bitPattern: value)
        return Data([UInt8(raw & 0xFF), UInt8((raw >> 8) & 0xFF), UInt8((raw >> 16) & 0xFF), UInt8(raw >> 24)])
    }
    static func base(_ name: String, optional: Bool = true, transient: Bool = false, modifier: String = "") -> Data {
        sha([s(name), u16((optional ? 1 : 0) | (transient ? 2 : 0)), s(modifier)])
    }
    static func attr(_ name: String, _ type: Int32, optional: Bool = true, transient: Bool = false, modifier: String = "",
                     external: Bool = false, preserved: Bool = false) -> Data {
        sha([base(name, optional: optional, transient: transient, modifier: modifier), i32(type)]
            + (external ? [Data([1])] : []) + (preserved ? [Data([1])] : []))
    }
    static func rel(_ name: String, to destination: String, inverse: String = "", max: Int32, min: Int32 = 0,
                    ordered: Bool = false) -> Data {
        sha([base(name), s(destination), s(inverse), i32(max), i32(min)] + (ordered ? [Data([1, 0])] : []))
    }
    static func entity(_ name: String, abstract: Bool = false, parent: Data? = nil, _ properties: [Data], tail: [Data] = []) -> Data {
        sha([s(name), Data([abstract ? 1 : 0])] + (parent.map { [$0] } ?? []) + properties + tail)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var xml: String
        var entity: String
        var expected: Data
        /// True when the rule is code-only or [open]: the hash must carry a caveat.
        var unverified: Bool = false
        var testDescription: String { rule }
    }

    static let types: [(String, Int32)] = [
        ("Integer 16", 100), ("Integer 32", 200), ("Integer 64", 300), ("Double", 500), ("Float", 600),
        ("String", 700), ("Boolean", 800), ("Date", 900), ("Binary", 1000), ("UUID", 1100), ("Transformable", 1800),
    ]

    static let cases: [Case] = types.map { type, code in
        Case(rule: "attribute type \(type)", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="\#(type)"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", code)]))
    } + [
        Case(rule: "Decimal (code 400, no ground truth)", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="Decimal"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 400)]), unverified: true),
        Case(rule: "URI (code 1200, no ground truth)", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="URI"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 1200)]), unverified: true),
        Case(rule: "required attribute: flags 0", xml: #"<entity name="E"><attribute name="a" attributeType="String"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700, optional: false)])),
        Case(rule: "external storage feeds 01", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 1000, external: true)])),
        Case(rule: "preserve after deletion feeds 01", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="String" preserveAfterDeletion="YES"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700, preserved: true)])),
        Case(rule: "both flags feed 01 01", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 1000, external: true, preserved: true)])),
        Case(rule: "property modifier follows the flags", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="String" versionHashModifier="v2"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700, modifier: "v2")])),
        Case(rule: "transient attribute: not in the entity hash", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="String"/><attribute name="t" optional="YES" transient="YES" attributeType="String"/></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700)])),
        Case(rule: "ignored: default, index, renaming identifier, userInfo, class", xml: #"<entity name="E" representedClassName="X" elementID="old"><attribute name="a" optional="YES" attributeType="String" defaultValueString="x" indexed="YES" elementID="b"><userInfo><entry key="k" value="v"/></userInfo></attribute><fetchIndex name="i"><fetchIndexElement property="a" type="Binary" order="ascending"/></fetchIndex></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700)])),
        Case(rule: "properties sorted by name, not file order", xml: #"<entity name="E"><attribute name="zeta" optional="YES" attributeType="String"/><attribute name="alpha" optional="YES" attributeType="Date"/></entity>"#,
             entity: "E", expected: entity("E", [attr("alpha", 900), attr("zeta", 700)])),
        Case(rule: "abstract entity feeds 01", xml: #"<entity name="E" isAbstract="YES"><attribute name="a" optional="YES" attributeType="String"/></entity>"#,
             entity: "E", expected: entity("E", abstract: true, [attr("a", 700)])),
        Case(rule: "to-many: maxCount 0, no inverse fed when absent", xml: #"<entity name="E"><relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="I"/></entity><entity name="I"/>"#,
             entity: "E", expected: entity("E", [rel("items", to: "I", max: 0)])),
        Case(rule: "to-one with inverse; delete rule ignored", xml: #"<entity name="E"><relationship name="i" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="I" inverseName="e" inverseEntity="I"/></entity><entity name="I"><relationship name="e" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E" inverseName="i" inverseEntity="E"/></entity>"#,
             entity: "E", expected: entity("E", [rel("i", to: "I", inverse: "e", max: 1)])),
        Case(rule: "required relationship: minCount absent is 0, flags 0", xml: #"<entity name="E"><relationship name="i" maxCount="1" deletionRule="Nullify" destinationEntity="I"/></entity><entity name="I"/>"#,
             entity: "E", expected: entity("E", [sha([base("i", optional: false), s("I"), i32(1), i32(0)])])),
        Case(rule: "ordered feeds 01 00", xml: #"<entity name="E"><relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="I"/></entity><entity name="I"/>"#,
             entity: "E", expected: entity("E", [rel("items", to: "I", max: 0, ordered: true)])),
        Case(rule: "explicit counts fed as written", xml: #"<entity name="E"><relationship name="items" optional="YES" toMany="YES" minCount="2" maxCount="5" deletionRule="Nullify" destinationEntity="I"/></entity><entity name="I"/>"#,
             entity: "E", expected: entity("E", [rel("items", to: "I", max: 5, min: 2)]), unverified: true),
        Case(rule: "to-one without maxCount: 1 assumed", xml: #"<entity name="E"><relationship name="i" optional="YES" deletionRule="Nullify" destinationEntity="I"/></entity><entity name="I"/>"#,
             entity: "E", expected: entity("E", [rel("i", to: "I", max: 1)]), unverified: true),
        Case(rule: "self-inverse feeds no inverse name", xml: #"<entity name="E"><relationship name="twin" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E" inverseName="twin" inverseEntity="E"/></entity>"#,
             entity: "E", expected: entity("E", [rel("twin", to: "E", max: 1)]), unverified: true),
        Case(rule: "one uniqueness constraint after the properties", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="a"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700)], tail: [s("a")])),
        Case(rule: "one two-name constraint in name order: joined with '.'", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="String"/><attribute name="b" optional="YES" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="a"/><constraint value="b"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700), attr("b", 700)], tail: [s("a.b")])),
        Case(rule: "several constraints: names joined with '.', strings sorted", xml: #"<entity name="E"><attribute name="a" optional="YES" attributeType="String"/><attribute name="b" optional="YES" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="b"/></uniquenessConstraint><uniquenessConstraint><constraint value="a"/><constraint value="b"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700), attr("b", 700)], tail: [s("a.b"), s("b")]), unverified: true),
        Case(rule: "entity modifier after the properties, before constraints", xml: #"<entity name="E" versionHashModifier="m"><attribute name="a" optional="YES" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="a"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
             entity: "E", expected: entity("E", [attr("a", 700)], tail: [s("m"), s("a")]), unverified: true),
        Case(rule: "derived: the expression only, key path aggregate rewritten", xml: #"<entity name="E"><attribute name="n" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/><relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="E"/></entity>"#,
             entity: "E", expected: entity("E", [rel("items", to: "E", max: 0), sha([s("count:(items)")])]), unverified: true),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) throws {
        let hashes = try HashFixtures.hash(c.xml)
        #expect(hashes.entities[c.entity] == c.expected)
        #expect(hashes.unverifiedEntities.contains(c.entity) == c.unverified, "\(hashes.caveats)")
    }

    /// Two levels of inheritance: the child feeds its parent's hash and every inherited
    /// property; only its own constraints.
    @Test func inheritanceTwoLevelsDeep() throws {
        let hashes = try HashFixtures.hash(#"""
        <entity name="A" isAbstract="YES"><attribute name="id" attributeType="UUID"/><uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints></entity>
        <entity name="B" parentEntity="A"><attribute name="b" optional="YES" attributeType="String"/></entity>
        <entity name="C" parentEntity="B"><attribute name="c" optional="YES" attributeType="Date"/><attribute name="t" optional="YES" transient="YES" attributeType="String"/></entity>
        """#)
        let a = Self.entity("A", abstract: true, [Self.attr("id", 1100, optional: false)], tail: [Self.s("id")])
        let b = Self.entity("B", parent: a, [Self.attr("b", 700), Self.attr("id", 1100, optional: false)])
        let c = Self.entity("C", parent: b, [Self.attr("b", 700), Self.attr("c", 900), Self.attr("id", 1100, optional: false)])
        #expect(hashes.entities == ["A": a, "B": b, "C": c])
        #expect(hashes.properties["C"]?["t"] == Self.attr("t", 700, transient: true))
        #expect(hashes.properties["C"]?["id"] == hashes.properties["A"]?["id"])
        #expect(hashes.checksum == Self.sha([a, b, c]).base64EncodedString())
    }

    @Test func unknownTypeIsAFailureNotAHash() {
        let parsed = ModelTestSupport.parse(ModelTestSupport.model(#"<entity name="E"><attribute name="a" attributeType="Money"/></entity>"#))
        guard let model = parsed.model else { Issue.record("did not parse"); return }
        #expect(throws: HashFailure.self) { try ModelHasher.hash(model).get() }
    }

    @Test func legacyVersionIsAFinding() {
        let version = ModelVersion(name: "Old", path: "Old.xcdatamodel", isLegacyFormat: true, model: ObjectModel(entities: [Entity(name: "Note")]))
        let hashed = VersionHashes(version)
        #expect(hashed.hashes == nil)
        #expect(hashed.failure?.message.contains("legacy Xcode 3 model") == true)
        // CP112 reports the legacy format already: no second finding.
        #expect(hashed.diagnostic == nil)
    }
}
