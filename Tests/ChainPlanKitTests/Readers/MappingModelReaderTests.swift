import Foundation
import ChainPlanTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// A hostile or broken `xcmapping.xml` fixture and the single CP120 it must give.
struct HostileDocument: Sendable, CustomTestStringConvertible {
    var fixture: String
    var message: String
    var line: Int?

    var testDescription: String { fixture }

    static let all: [HostileDocument] = [
        HostileDocument(fixture: "InternalSubset", message: "xcmapping.xml declares a DTD internal subset, which is refused for safety", line: 2),
        HostileDocument(fixture: "EntityDeclaration", message: "xcmapping.xml declares an entity, which is refused for safety", line: 3),
        HostileDocument(fixture: "BillionLaughs", message: "xcmapping.xml declares an entity, which is refused for safety", line: 3),
        HostileDocument(fixture: "UndeclaredEntityReference",
                        message: "xcmapping.xml is not well-formed XML (an entity is not declared, libxml2 error 26)", line: 6),
        HostileDocument(fixture: "SecondDoctype", message: "xcmapping.xml declares a second DOCTYPE, which is refused", line: 5),
        HostileDocument(fixture: "UnterminatedDoctype", message: "xcmapping.xml has an unterminated DOCTYPE", line: 2),
        HostileDocument(fixture: "WrongRoot", message: "the root element of xcmapping.xml is 'plist', not 'database'", line: 2),
        HostileDocument(fixture: "NoMappingModelObject", message: "xcmapping.xml holds no XDDEVMAPPINGMODEL object", line: nil),
        HostileDocument(fixture: "Truncated",
                        message: "xcmapping.xml is not well-formed XML (the document ends prematurely, libxml2 error 5)", line: 7),
        HostileDocument(fixture: "Empty", message: "xcmapping.xml has no root element", line: nil),
        HostileDocument(fixture: "NoDocument", message: "xcmapping.xml does not exist", line: nil),
        HostileDocument(fixture: "DocumentIsFolder", message: "xcmapping.xml is a directory, not a file", line: nil),
    ]
}

/// A broken or hostile embedded archive and the CP120 message it must give.
enum HostileArchive: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case rootOutOfRange, referenceOutOfRange, classesTableIsModel, dictionaryContainsItself, packageIsModel
    case entityNameNotString, attributeTypeNotInteger, optionalNotBoolean, rootNotModel
    case truncated, hugeObjectCount, offsetTableOutOfRange, notBinaryPlist, notKeyedArchive, noObjects, deepNesting

    var testDescription: String { rawValue }

    /// The archive bytes and the expected reason.
    func make() -> (bytes: [UInt8], reason: String) {
        var sample = SampleSnapshot()
        switch self {
        case .rootOutOfRange:
            _ = sample.build()
            return (sample.builder.archive(root: 9_999), "its root reference #9999 is out of range")
        case .referenceOutOfRange:
            sample.attributeTypeValue = .uid(99_999)
            let bytes = sample.build()
            return (bytes, "it refers to object #99999 of \(sample.builder.objects.count)")
        case .classesTableIsModel:
            sample.classesStorage = .uid(1) // the model object itself
            let bytes = sample.build()
            #expect(sample.modelIndex == 1)
            return (bytes, "the entity table is not an archived dictionary")
        case .dictionaryContainsItself:
            // The entity table is a dictionary whose only value is the dictionary itself.
            _ = sample.build()
            let key = sample.builder.string("Creature")
            let classNode = sample.builder.classRef("NSMutableDictionary", ["NSDictionary", "NSObject"])
            let index = sample.builder.objects.count
            _ = sample.builder.add(.dict([("NS.keys", .array([key])), ("NS.objects", .array([.uid(index)])), ("$class", classNode)]))
            let packageClass = sample.builder.classRef("XDModelPackage")
            sample.builder.objects[sample.packageIndex] = .dict([
                ("_xd_owningModel", .uid(sample.modelIndex)), ("XDBucketForClassesstorage", .uid(index)), ("$class", packageClass),
            ])
            return (sample.builder.archive(root: sample.modelIndex), "entity 'Creature' is not an XDPMEntity")
        case .packageIsModel:
            var bytes = sample.build()
            let modelClass = sample.builder.classRef("XDPMModel", ["XDModel", "NSObject"])
            sample.builder.objects[sample.modelIndex] = .dict([("_xd_rootPackage", .uid(sample.modelIndex)), ("$class", modelClass)])
            bytes = sample.builder.archive(root: sample.modelIndex)
            return (bytes, "its root package is not an XDModelPackage")
        case .entityNameNotString:
            sample.entityName = .int(5)
            return (sample.build(), "the name of entity 'Creature' is not a string")
        case .attributeTypeNotInteger:
            sample.attributeTypeValue = .string("Integer 16")
            return (sample.build(), "the type of attribute 'name' of entity 'Creature' is not an integer")
        case .optionalNotBoolean:
            sample.optionalValue = .string("YES")
            return (sample.build(), "'isOptional' of property 'name' of entity 'Creature' is not a Boolean")
        case .rootNotModel:
            _ = sample.build()
            return (sample.builder.archive(root: sample.packageIndex), "its root object is not an XDPMModel")
        case .truncated:
            let bytes = sample.build()
            return (Array(bytes.prefix(bytes.count / 2)), "it is a malformed binary property list")
        case .hugeObjectCount:
            var bytes = sample.build()
            // Trailer: …, numObjects (8 bytes), topObject (8), offsetTableOffset (8).
            bytes.replaceSubrange((bytes.count - 24)..<(bytes.count - 16), with: [0, 0, 1, 0, 0, 0, 0, 0])
            return (bytes, "it is a malformed binary property list")
        case .offsetTableOutOfRange:
            var bytes = sample.build()
            bytes.replaceSubrange((bytes.count - 8)..<bytes.count, with: [0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF])
            return (bytes, "it is a malformed binary property list")
        case .notBinaryPlist:
            return (Array("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8), "it is not a binary property list")
        case .notKeyedArchive:
            return (ArchivePlistWriter.write(.dict([("hello", .string("world"))])), "it is not an NSKeyedArchiver archive")
        case .noObjects:
            return (ArchivePlistWriter.write(.dict([("$archiver", .string("NSKeyedArchiver")), ("$top", .dict([("root", .uid(1))]))])),
                    "it has no '$objects' table")
        case .deepNesting:
            var node = PlistNode.array([])
            for _ in 0..<2_000 { node = .array([node]) }
            sample.classesStorage = node
            return (sample.build(), "it is not a readable property list")
        }
    }
}

@Suite("Mapping model reader: fixtures")
struct MappingModelReaderTests {
    static let hostile = MappingTestPaths.fixtures.appendingPathComponent("Hostile")

    @Test("hostile or broken documents give one CP120 and no model", arguments: HostileDocument.all)
    func hostileDocument(_ document: HostileDocument) {
        let url = Self.hostile.appendingPathComponent("\(document.fixture).xcmappingmodel")
        let display = "Hostile/\(document.fixture).xcmappingmodel"
        let result = MappingModelReader.read(at: url, displayPath: display)
        #expect(result.model == nil)
        #expect(result.diagnostics == [
            Diagnostic(.unreadableMappingModel, "mapping model '\(document.fixture)': \(document.message)",
                       at: SourceLocation(file: display + "/xcmapping.xml", line: document.line)),
        ])
        #expect(result.diagnostics.first?.severity == .error)
    }

    @Test("undecodable snapshots give CP120 at their line but keep the model")
    func base64Garbage() throws {
        let url = Self.hostile.appendingPathComponent("Base64Garbage.xcmappingmodel")
        let result = MappingModelReader.read(at: url, displayPath: "B.xcmappingmodel")
        let model = try #require(result.model)
        #expect(model.sourceModel == nil)
        #expect(model.destinationModel == nil)
        #expect(model.sourceHint == ModelPathHint(bundle: "Zoo", version: "Zoo"))
        #expect(result.diagnostics.map(\.message) == [
            "mapping model 'Base64Garbage': the source model snapshot is not valid base64",
            "mapping model 'Base64Garbage': the destination model snapshot cannot be decoded: it is not a binary property list",
        ])
        #expect(result.diagnostics.map(\.location?.line) == [7, 9])
        #expect(result.diagnostics.allSatisfy { $0.code == .unreadableMappingModel && $0.location?.file == "B.xcmappingmodel/xcmapping.xml" })
    }

    @Test("a complete synthetic snapshot decodes exactly; the Xcode DOCTYPE is never loaded")
    func syntheticSnapshot() throws {
        let folder = try TemporaryMappingFolder()
        defer { folder.remove() }
        var sample = SampleSnapshot()
        let bytes = sample.build()
        let url = try folder.write("Zoo", xml: TemporaryMappingFolder.document(source: bytes, destination: bytes))
        let result = MappingModelReader.read(at: url, displayPath: "Zoo.xcmappingmodel")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let model = try #require(result.model)
        #expect(model.sourceModel == SampleSnapshot.expectedModel)
        #expect(model.destinationModel == SampleSnapshot.expectedModel)
        #expect(model.sourceUnrecordedFields.isEmpty)
        #expect(model.name == "Zoo")
        #expect(model.path == "Zoo.xcmappingmodel")
        #expect(model.documentPath == "Zoo.xcmappingmodel/xcmapping.xml")
        #expect(model.line == 20)
        #expect(model.sourceDataLine == 22)
        #expect(model.statedSourcePath == "Model/Zoo.xcdatamodeld/Zoo.xcdatamodel")
        #expect(model.destinationHint == ModelPathHint(bundle: "Zoo", version: "Zoo 2"))
        #expect(model.customPolicies == ["ZooPolicy"])
        #expect(model.valueExpressionCount == 1)
        #expect(model.entityMappings == [
            EntityMapping(sourceEntity: "Creature", destinationEntity: "Creature", mappingType: "Undefined",
                          policyClassName: "ZooPolicy", mappingNumber: 1,
                          attributeMappings: [
                              PropertyMapping(name: "legs", hasValueExpression: true, line: 16),
                              PropertyMapping(name: "name", hasValueExpression: false, line: 13),
                          ],
                          relationshipMappings: [], line: 5),
        ])
        // Reading the xcmapping.xml file directly gives the same model.
        let direct = MappingModelReader.read(at: url.appendingPathComponent("xcmapping.xml"), displayPath: "Zoo.xcmappingmodel/xcmapping.xml")
        #expect(direct.model == model)
    }

    @Test("a cyclic but legitimate graph (an entity that is its own parent) decodes without looping")
    func selfParent() throws {
        var sample = SampleSnapshot()
        sample.generalTarget = .uid(4) // Fish's generalization points at Fish itself
        let bytes = sample.build()
        #expect(sample.fishIndex == 4)
        let snapshot = try ModelSnapshotDecoder.decode(Data(bytes))
        #expect(snapshot.model.entity(named: "Fish")?.parentEntity == "Fish")
        #expect(HashInputTable.inputs(of: snapshot.model)["Fish"]?.name == "Fish")
    }

    @Test("keys a snapshot does not record are reported, not guessed")
    func unrecordedFields() throws {
        var sample = SampleSnapshot()
        sample.omitKeys = ["XD_PRK_deleteRule", "XD_PPSK_isTransient", "XD_PSK_versionHashModifier"]
        let snapshot = try ModelSnapshotDecoder.decode(Data(sample.build()))
        #expect(snapshot.unrecordedFields == [.relationshipDeletionRule, .propertyTransient, .entityVersionHashModifier])
        #expect(snapshot.model.entity(named: "Fish")?.versionHashModifier == nil)
    }

    @Test("hostile archives give CP120 at the snapshot's line, never a crash or a hang", arguments: HostileArchive.allCases)
    func hostileArchive(_ archive: HostileArchive) throws {
        let folder = try TemporaryMappingFolder()
        defer { folder.remove() }
        var valid = SampleSnapshot()
        let (bytes, reason) = archive.make()
        let url = try folder.write("Zoo", xml: TemporaryMappingFolder.document(source: bytes, destination: valid.build()))
        let result = MappingModelReader.read(at: url, displayPath: "Zoo.xcmappingmodel")
        let model = try #require(result.model)
        #expect(model.sourceModel == nil)
        #expect(model.destinationModel == SampleSnapshot.expectedModel)
        #expect(result.diagnostics == [
            Diagnostic(.unreadableMappingModel, "mapping model 'Zoo': the source model snapshot cannot be decoded: \(reason)",
                       at: SourceLocation(file: "Zoo.xcmappingmodel/xcmapping.xml", line: 22)),
        ])
    }

    @Test("a missing snapshot is reported at the mapping model object")
    func missingSnapshot() throws {
        let folder = try TemporaryMappingFolder()
        defer { folder.remove() }
        var sample = SampleSnapshot()
        let url = try folder.write("Zoo", xml: TemporaryMappingFolder.document(source: sample.build(), destination: nil))
        let result = MappingModelReader.read(at: url, displayPath: "Zoo.xcmappingmodel")
        #expect(result.model?.destinationModel == nil)
        #expect(result.diagnostics.map(\.message) == ["mapping model 'Zoo': the destination model snapshot ('destinationmodeldata') is missing"])
        #expect(result.diagnostics.map(\.location?.line) == [20])
    }

    @Test("invalid UTF-8, an oversized file, a FIFO and a device are refused without reading them")
    func unreadableFiles() throws {
        let folder = try TemporaryMappingFolder()
        defer { folder.remove() }
        var bytes = Data("<?xml version=\"1.0\"?>\n<database>\n".utf8)
        bytes.append(contentsOf: [0x3C, 0x61, 0xFF, 0x3E, 0x0A])
        let invalid = try folder.write("Latin", data: bytes)
        #expect(MappingModelReader.read(at: invalid, displayPath: "L").diagnostics.map { "\($0.location?.line ?? 0) \($0.message)" }
            == ["3 mapping model 'Latin': xcmapping.xml is not valid UTF-8"])

        var sample = SampleSnapshot()
        let large = try folder.write("Large", xml: TemporaryMappingFolder.document(source: sample.build(), destination: nil))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: large.appendingPathComponent("xcmapping.xml").path)[.size] as? Int)
        #expect(MappingModelReader.read(at: large, displayPath: "L", maxBytes: 1_000).diagnostics.map(\.message)
            == ["mapping model 'Large': xcmapping.xml is \(size) bytes, over the limit of 1000 bytes"])

        let fifoFolder = folder.root.appendingPathComponent("Fifo.xcmappingmodel")
        try FileManager.default.createDirectory(at: fifoFolder, withIntermediateDirectories: true)
        #expect(mkfifo(fifoFolder.appendingPathComponent("xcmapping.xml").path, 0o600) == 0)
        #expect(MappingModelReader.read(at: fifoFolder, displayPath: "F").diagnostics.map(\.message)
            == ["mapping model 'Fifo': xcmapping.xml is a FIFO, not a regular file"])

        let deviceFolder = folder.root.appendingPathComponent("Device.xcmappingmodel")
        try FileManager.default.createDirectory(at: deviceFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: deviceFolder.appendingPathComponent("xcmapping.xml").path,
                                                   withDestinationPath: "/dev/zero")
        #expect(MappingModelReader.read(at: deviceFolder, displayPath: "D").diagnostics.map(\.message)
            == ["mapping model 'Device': xcmapping.xml is a device, not a regular file"])
    }

    @Test("stated paths give a bundle and version hint", arguments: [
        ("AltStore/Model/AltStore.xcdatamodeld/AltStore 2.xcdatamodel", "AltStore", "AltStore 2"),
        ("⭐️Sources/⭐️Demos/⭐️Advanced/EvolutionDemo/Advanced.EvolutionDemo.V1.xcdatamodeld/Advanced.EvolutionDemo.V2.xcdatamodel",
         "Advanced.EvolutionDemo.V1", "Advanced.EvolutionDemo.V2"),
        ("/Users/someone/Projects/App/Model.xcdatamodeld/Model 3.xcdatamodel", "Model", "Model 3"),
        ("Model.xcdatamodeld/Model.xcdatamodel/", "Model", "Model"),
        ("Old/Single.xcdatamodel", nil, "Single"),
    ] as [(String, String?, String)])
    func pathHints(_ path: String, _ bundle: String?, _ version: String) {
        #expect(ModelPathHint(statedPath: path) == ModelPathHint(bundle: bundle, version: version))
    }

    @Test("paths without a model version give no hint", arguments: ["", "Model.xcdatamodeld", "a/b/c", "x/.xcdatamodel"])
    func noHint(_ path: String) {
        #expect(ModelPathHint(statedPath: path) == nil)
    }
}

extension CorpusTests {
    /// The tests of `MappingModelReaderTests` that read `../shared`.
    @Suite struct MappingModelReaderFileCorpusTests {
        @Test("CoreStore's V2.FromV1: objects, lines, mappings and value expressions as in the file")
        func coreStoreDetails() throws {
            let path = "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel"
            let result = MappingModelReader.read(at: MappingTestPaths.corpus.appendingPathComponent(path), displayPath: path)
            #expect(result.diagnostics.isEmpty)
            let model = try #require(result.model)
            #expect(model.line == 71)
            #expect(model.sourceDataLine == 73)
            #expect(model.destinationDataLine == 77)
            #expect(model.entityMappings == [
                EntityMapping(sourceEntity: "Creature", destinationEntity: "Creature", mappingType: "Undefined",
                              policyClassName: "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy", mappingNumber: 1,
                              attributeMappings: [
                                  PropertyMapping(name: "dnaCode", hasValueExpression: false, line: 60),
                                  PropertyMapping(name: "hasHead", hasValueExpression: true, line: 86),
                                  PropertyMapping(name: "hasTail", hasValueExpression: false, line: 93),
                                  PropertyMapping(name: "hasVertebrae", hasValueExpression: false, line: 82),
                                  PropertyMapping(name: "numberOfFlippers", hasValueExpression: true, line: 64),
                              ],
                              relationshipMappings: [], line: 49),
            ])
            #expect(model.valueExpressionCount == 2)
            #expect(model.sourceModel == ObjectModel(entities: [
                Entity(name: "Creature", representedClassName: "Advanced_EvolutionDemo_V1_Creature", attributes: [
                    Attribute(name: "dnaCode", type: .integer64, defaultValueString: "0"),
                    Attribute(name: "numberOfFlagella", type: .integer32, defaultValueString: "2"),
                ]),
            ]))
        }
    }
}
