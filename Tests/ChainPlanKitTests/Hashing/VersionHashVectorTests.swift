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

/// The byte-level test vectors of `core-data-internals.md` §1.8 (CoreDataPlus `SampleModel3_v2`,
/// entity `User`), each hash checked byte for byte, and the bytes fed checked too.
@Suite("Version hash vectors")
struct VersionHashVectorTests {
    static let user = ObjectModel(entities: [
        Entity(name: "Pet", attributes: [Attribute(name: "name", type: .string)],
               relationships: [HashFixtures.toOne("owner", to: "User", inverse: "pet")]),
        Entity(name: "User", attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "petName", type: .string, isOptional: true),
        ], relationships: [HashFixtures.toOne("pet", to: "Pet", inverse: "owner")]),
    ])

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var hash: @Sendable () -> Data
        var expected: String
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(name: "base(name)", hash: { VersionHasher.propertyBase(name: "name", isOptional: false, isTransient: false, modifier: nil) },
               expected: "90d44c7db5b5a80bff15f243906d1f1c650a9a74e2506784ec96d4ff03f61b73"),
        Vector(name: "attr(name)", hash: { VersionHasher.plainAttribute(Attribute(name: "name", type: .string), type: 700) },
               expected: "8cb9965c0031ac68913984f3110941ad965395be9fd9b17de7be54bc7ad46890"),
        Vector(name: "base(petName)", hash: { VersionHasher.propertyBase(name: "petName", isOptional: true, isTransient: false, modifier: nil) },
               expected: "a0a3ecd1576b89e6f97b0769271c34ad93faa5309720ec4f9e626c270a255ef9"),
        Vector(name: "attr(petName)", hash: { VersionHasher.plainAttribute(Attribute(name: "petName", type: .string, isOptional: true), type: 700) },
               expected: "3600ceedf50b080f90041365395158784f0deb03bc9acddf1cad607c4fe50742"),
        Vector(name: "base(pet)", hash: { VersionHasher.propertyBase(name: "pet", isOptional: true, isTransient: false, modifier: nil) },
               expected: "d664732921fadba001d7d931bcce508d97e4e04c40a2fd7ff0c38587e8414af7"),
        Vector(name: "rel(pet)", hash: { VersionHasher.relationship(HashFixtures.toOne("pet", to: "Pet", inverse: "owner"), selfInverse: false) },
               expected: "2084585752be67546286f1e7c8a32ed9da6248be866c682bb439f7178d3f605a"),
        Vector(name: "User", hash: { (try? ModelHasher.hash(user).get())?.entities["User"] ?? Data() },
               expected: "6a47cbef0e3f84c2449249fdc83f003d7e514378f8ee9a76a8d4c0ec8bb1b822"),
    ]

    @Test(arguments: vectors)
    func vector(_ vector: Vector) {
        #expect(Self.hex(vector.hash()) == vector.expected)
    }

    /// The bytes fed, as the table lists them: a change to any byte of the layout moves the hash.
    @Test func relationshipBytesFed() {
        let base = VersionHasher.propertyBase(name: "pet", isOptional: true, isTransient: false, modifier: nil)
        let fed = base + Data("Pet".utf8) + Data("owner".utf8) + Data([1, 0, 0, 0, 0, 0, 0, 0])
        #expect(VersionHasher.sha256(Array(fed)) == VersionHasher.relationship(HashFixtures.toOne("pet", to: "Pet", inverse: "owner"), selfInverse: false))
    }

    @Test func modelChecksum() throws {
        let hashes = try ModelHasher.hash(Self.user).get()
        #expect(hashes.checksum == "rzn6eNBLyn8k3AoC3kH3yymPT0vSUPaVcgi0v2SuHS8=")
        #expect(hashes.checksum.count == 44)
        #expect(hashes.digest.count == 88)
        #expect(hashes.isVerified, "\(hashes.caveats)")
    }

    /// The digest's layout: SHA-512 over name ‖ hash, names sorted.
    @Test func digestLayout() {
        let entities = ["B": Data(repeating: 2, count: 32), "A": Data(repeating: 1, count: 32)]
        let fed = Data("A".utf8) + Data(repeating: 1, count: 32) + Data("B".utf8) + Data(repeating: 2, count: 32)
        #expect(VersionHasher.digest(entities) == Data(SHA512Reference.hash(fed)).base64EncodedString())
        #expect(VersionHasher.versionHash(entities) == VersionHasher.sha256(Array(Data(repeating: 1, count: 32) + Data(repeating: 2, count: 32))))
    }

    @Test("name order is UTF-16 code-unit order", arguments: [
        (["b", "a", "_c", "B", "Z"], ["B", "Z", "_c", "a", "b"]),
        (["userName", "user", "users"], ["user", "userName", "users"]),
    ])
    func order(_ names: [String], _ expected: [String]) {
        #expect(VersionHasher.sortedNames(names) == expected)
    }

    @Test func orderCaveats() {
        #expect(VersionHasher.isVerifiedOrder(["alpha", "beta", "gamma2"]))
        #expect(!VersionHasher.isVerifiedOrder(["alpha", "Beta"]))
        #expect(!VersionHasher.isVerifiedOrder(["_x", "B"]))
        #expect(!VersionHasher.isVerifiedOrder(["ünder"]))
    }
}
