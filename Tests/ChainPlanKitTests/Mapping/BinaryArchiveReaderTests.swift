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
