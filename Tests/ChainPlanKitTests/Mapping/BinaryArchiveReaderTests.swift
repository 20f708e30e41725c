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

/// `BinaryArchiveReader` reads plain keyed archives into exactly what Foundation's reader and
/// `PlistConverter` give, and leaves everything else to them.
struct BinaryArchiveReaderTests {
    /// The synthetic snapshot: read directly, equal to Foundation's reading.
    @Test func sampleSnapshotReadsAsFoundationReadsIt() throws {
        var sample = SampleSnapshot()
        let data = Data(sample.build())
        let direct = try #require(BinaryArchiveReader.read(data, keys: PlistConverter.objectKeys))
        let foundation = try KeyedArchive.readThroughFoundation(data, keys: PlistConverter.objectKeys)
        #expect(direct.objects == foundation.objects)
        #expect(direct.root == foundation.root)
    }

    /// Broken or unusual archives are left to Foundation (nil), so their messages stay its own.
    @Test(arguments: [HostileArchive.truncated, .hugeObjectCount, .offsetTableOutOfRange, .notBinaryPlist, .notKeyedArchive,
                      .noObjects, .deepNesting, .rootOutOfRange])
    func leftToFoundation(_ archive: HostileArchive) {
        #expect(BinaryArchiveReader.read(Data(archive.make().bytes), keys: PlistConverter.objectKeys) == nil)
    }

    /// A `bplist00` of raw objects (marker and body, references `referenceSize` bytes wide) and
    /// an offset table that may point anywhere: for shapes no writer makes.
    static func rawPlist(_ objects: [[UInt8]], offsets: [Int]? = nil, referenceSize: Int = 2, top: Int = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var written: [Int] = []
        for object in objects {
            written.append(bytes.count)
            bytes += object
        }
        let table = offsets ?? written
        let tableStart = bytes.count
        for offset in table { bytes += [UInt8(truncatingIfNeeded: offset >> 24), UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset)] }
        func be8(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        bytes += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)] + be8(table.count) + be8(top) + be8(tableStart)
        return bytes
    }

    static func reference(_ index: Int) -> [UInt8] { [UInt8(index >> 8), UInt8(index & 0xFF)] }
    static func string(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
    /// An array (0xA0) of `references`, or a dictionary (0xD0) of keys then values.
    static func container(_ marker: UInt8, _ references: [Int]) -> [UInt8] {
        let count = marker == 0xD0 ? references.count / 2 : references.count
        let header: [UInt8] = count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
        return header + references.flatMap(reference)
    }

    /// A keyed archive whose one object is an array of 16 references to an array of 16
    /// references to … (20 levels): 4 KB of plist that a tree of values would need 16^20 nodes
    /// for. Neither reader multiplies it out: the direct one leaves it, Foundation's path refuses.
    @Test func sharedContainersAreNotMultipliedOut() throws {
        let levels = 20, width = 16
        var objects: [[UInt8]] = [
            Self.container(0xD0, [1, 2, 3, 4, 5, 6]),  // 0: {$archiver, $objects, $top}
            Self.string("$archiver"), Self.string("$objects"), Self.string("$top"),
            Self.string("NSKeyedArchiver"),
            Self.container(0xA0, [7, 9]),  // 5: $objects = [$null, level 0]
            [],  // 6: $top, written below
            Self.string("$null"), Self.string("root"),
        ]
        for level in 0..<levels {  // 9 + level
            let next = level + 1 < levels ? 9 + level + 1 : 7
            objects.append(Self.container(0xA0, Array(repeating: next, count: width)))
        }
        objects.append([0x80, 1])  // 9 + levels: UID 1
        objects[6] = Self.container(0xD0, [8, 9 + levels])  // $top = {root: UID 1}
        let data = Data(Self.rawPlist(objects))
        #expect(BinaryArchiveReader.read(data, keys: PlistConverter.objectKeys) == nil)
        #expect(throws: ArchiveError.self) { try KeyedArchive.readThroughFoundation(data, keys: PlistConverter.objectKeys) }
    }

    /// An offset table whose entries all point at one large array: read once per entry it would
    /// hold entries × references; the direct reader takes objects only in order, each after the
    /// one before, and leaves this to Foundation.
    @Test func offsetsThatReuseOneObjectAreLeftToFoundation() {
        let big = Self.container(0xA0, Array(repeating: 0, count: 2_000))
        let data = Data(Self.rawPlist([big], offsets: Array(repeating: 8, count: 2_000)))
        #expect(BinaryArchiveReader.read(data, keys: PlistConverter.objectKeys) == nil)
        #expect(throws: ArchiveError.self) { try KeyedArchive(data: data) }
    }

    /// Every fuzz regression archive (binary plists holding sets) is left to Foundation's refusal.
    @Test func fuzzArchivesAreLeftToFoundation() throws {
        let inputs = FuzzRegressionTests.inputs.filter { $0.target == "archive" || $0.target == "plist" }
        #expect(!inputs.isEmpty)
        for input in inputs {
            #expect(BinaryArchiveReader.read(try Data(contentsOf: input.url), keys: PlistConverter.objectKeys) == nil,
                    "\(input.url.lastPathComponent)")
        }
    }
}

extension CorpusTests {
    /// Every model snapshot embedded in the corpus's mapping models reads directly, and equals
    /// Foundation's reading value for value.
    @Suite struct BinaryArchiveReaderCorpusTests {
        @Test func everyCorpusSnapshotReadsAsFoundationReadsIt() throws {
            let repositories = Set(CorpusAgreementTests.rows.map { String($0.bundle.split(separator: "/")[0]) }).sorted()
            var snapshots = 0
            for repository in repositories {
                let folder = TestPaths.corpus.appendingPathComponent(repository)
                for url in MappingModelDiscovery.find(in: folder, maxDepth: 12).urls {
                    let xml = try Data(contentsOf: url.appendingPathComponent("xcmapping.xml"))
                    guard case .success(let document) = MappingXMLDocument.parse(xml) else { continue }
                    for object in document.objects where object.type == "XDDEVMAPPINGMODEL" {
                        for key in ["sourcemodeldata", "destinationmodeldata"] {
                            guard let text = object.attributes[key]?.text,
                                  let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { continue }
                            let direct = BinaryArchiveReader.read(data, keys: PlistConverter.objectKeys)
                            let foundation = try KeyedArchive.readThroughFoundation(data, keys: PlistConverter.objectKeys)
                            #expect(direct?.objects == foundation.objects, "\(url.lastPathComponent) \(key)")
                            #expect(direct?.root == foundation.root, "\(url.lastPathComponent) \(key)")
                            snapshots += 1
                        }
                    }
                }
            }
            #expect(snapshots > 0)
        }
    }
}
