import Foundation
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// A property-list value for `ArchivePlistWriter` (test-only; supports `CF$UID`).
indirect enum PlistNode {
    case string(String)
    case int(Int)
    case bool(Bool)
    case uid(Int)
    case data([UInt8])
    case array([PlistNode])
    case dict([(String, PlistNode)])
}

/// Writes `bplist00` documents, including UIDs, so tests can build well-formed and
/// deliberately broken keyed archives without any binary fixture files.
enum ArchivePlistWriter {
    static func write(_ root: PlistNode) -> [UInt8] {
        var encoded: [[UInt8]] = []
        var pending: [(index: Int, node: PlistNode)] = []

        // First pass: assign indexes breadth-first (keys are string objects too).
        func allocate(_ node: PlistNode) -> Int {
            encoded.append([])
            pending.append((encoded.count - 1, node))
            return encoded.count - 1
        }
        _ = allocate(root)
        var cursor = 0
        var references: [Int: [Int]] = [:]
        while cursor < pending.count {
            let (index, node) = pending[cursor]
            cursor += 1
            switch node {
            case .array(let elements):
                references[index] = elements.map(allocate)
            case .dict(let entries):
                let keys = entries.map { allocate(.string($0.0)) }
                let values = entries.map { allocate($0.1) }
                references[index] = keys + values
            default:
                break
            }
        }
        let referenceSize = encoded.count < 256 ? 1 : (encoded.count < 65_536 ? 2 : 4)
        func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
            (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
            if count < 15 { return [marker | UInt8(count)] }
            return [marker | 0x0F, 0x13] + bigEndian(count, 8)
        }
        for (index, node) in pending {
            switch node {
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    encoded[index] = header(0x50, text.utf8.count) + Array(text.utf8)
                } else {
                    let units = Array(text.utf16)
                    encoded[index] = header(0x60, units.count) + units.flatMap { bigEndian(Int($0), 2) }
                }
            case .int(let value):
                encoded[index] = [0x13] + bigEndian(value, 8)
            case .bool(let flag):
                encoded[index] = [flag ? 0x09 : 0x08]
            case .uid(let value):
                encoded[index] = [0x83] + bigEndian(value, 4)
            case .data(let bytes):
                encoded[index] = header(0x40, bytes.count) + bytes
            case .array(let elements):
                encoded[index] = header(0xA0, elements.count)
                    + (references[index] ?? []).flatMap { bigEndian($0, referenceSize) }
            case .dict(let entries):
                encoded[index] = header(0xD0, entries.count)
                    + (references[index] ?? []).flatMap { bigEndian($0, referenceSize) }
            }
        }
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in encoded {
            offsets.append(output.count)
            output += object
        }
        let tableOffset = output.count
        for offset in offsets { output += bigEndian(offset, 4) }
        output += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
        output += bigEndian(encoded.count, 8) + bigEndian(0, 8) + bigEndian(tableOffset, 8)
        return output
    }
}

/// Builds Xcode-style model snapshots (`XDPMModel` keyed archives) object by object.
struct SnapshotBuilder {
    var objects: [PlistNode] = [.string("$null")]
    private var classes: [String: Int] = [:]

    mutating func add(_ node: PlistNode) -> Int {
        objects.append(node)
        return objects.count - 1
    }

    mutating func classRef(_ name: String, _ superclasses: [String] = ["NSObject"]) -> PlistNode {
        if let index = classes[name] { return .uid(index) }
        let index = add(.dict([("$classname", .string(name)), ("$classes", .array(([name] + superclasses).map { .string($0) }))]))
        classes[name] = index
        return .uid(index)
    }

    mutating func string(_ text: String) -> PlistNode { .uid(add(.string(text))) }

    /// An archived NSMutableDictionary of string keys.
    mutating func dictionary(_ entries: [(String, PlistNode)]) -> PlistNode {
        let keys = entries.map { string($0.0) }
        let values = entries.map(\.1)
        let classNode = classRef("NSMutableDictionary", ["NSDictionary", "NSObject"])
        return .uid(add(.dict([("NS.keys", .array(keys)), ("NS.objects", .array(values)), ("$class", classNode)])))
    }

    mutating func array(_ elements: [PlistNode]) -> PlistNode {
        let classNode = classRef("NSMutableArray", ["NSArray", "NSObject"])
        return .uid(add(.dict([("NS.objects", .array(elements)), ("$class", classNode)])))
    }

    /// A stereotype holding `values` (key → `_default`), owned by `owner`.
    mutating func stereotype(_ name: String, owner: Int, _ values: [(String, PlistNode)]) -> PlistNode {
        let index = add(.string("placeholder"))
        var properties: [(String, PlistNode)] = []
        for (key, value) in values {
            let propertyClass = classRef("XDUMLPropertyImp")
            properties.append((key, .uid(add(.dict([
                ("_name", string(key)), ("_default", value), ("_owner", .uid(index)), ("$class", propertyClass),
            ])))))
        }
        let owned = dictionary(properties)
        let stereotypeClass = classRef("XDUMLStereotypeImp", ["XDUMLClassImp", "NSObject"])
        objects[index] = .dict([
            ("_name", string(name)), ("_owner", .uid(owner)), ("XDBucketForOwnedAttributesstorage", owned),
            ("_isAbstract", .bool(false)), ("$class", stereotypeClass),
        ])
        return .uid(index)
    }

    /// The archive document around `objects`, rooted at `root`.
    func archive(root: Int) -> [UInt8] {
        ArchivePlistWriter.write(.dict([
            ("$version", .int(100_000)),
            ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dict([("root", .uid(root))])),
            ("$objects", .array(objects)),
        ]))
    }
}

/// A small but complete snapshot: entity `Creature` (abstract: no) with attribute `name`
/// (String, optional), attribute `legs` (Integer 16, default 4, renaming identifier `feet`),
/// and a to-many relationship `children` ↔ to-one `parent`, both to `Creature` itself
/// (so the object graph is cyclic, as in real snapshots); entity `Fish` (parent
/// `Creature`, version hash modifier `v2`).
struct SampleSnapshot {
    var builder = SnapshotBuilder()
    var modelIndex = 0
    var packageIndex = 0
    var creatureIndex = 0
    var fishIndex = 0
    var nameAttributeIndex = 0

    /// Hooks to corrupt particular places.
    var entityName: PlistNode?
    var attributeTypeValue: PlistNode = .int(700)
    var classesStorage: PlistNode?
    var generalTarget: PlistNode?
    var optionalValue: PlistNode = .bool(true)
    var omitKeys: Set<String> = []

    static var expectedModel: ObjectModel {
        var model = ObjectModel(entities: [
            Entity(name: "Creature", representedClassName: "Creature",
                   attributes: [
                       Attribute(name: "legs", type: .integer16, isOptional: false, defaultValueString: "4", renamingIdentifier: "feet"),
                       Attribute(name: "name", type: .string, isOptional: true),
                   ],
                   relationships: [
                       Relationship(name: "children", destinationEntity: "Creature", inverseName: "parent", inverseEntity: "Creature",
                                    isToMany: true, isOrdered: true, isOptional: true, minCount: 0, maxCount: 0, deletionRule: .cascade),
                       Relationship(name: "parent", destinationEntity: "Creature", inverseName: "children", inverseEntity: "Creature",
                                    isToMany: false, isOptional: true, minCount: 0, maxCount: 1, deletionRule: .nullify),
                   ]),
            Entity(name: "Fish", parentEntity: "Creature", versionHashModifier: "v2", representedClassName: "Fish"),
        ], versionIdentifier: "1.0")
        // The snapshot records both counts of every relationship (no XML defaults apply).
        for index in model.entities[0].relationships.indices {
            model.entities[0].relationships[index].hasWrittenMinCount = true
            model.entities[0].relationships[index].hasWrittenMaxCount = true
        }
        return model
    }

    mutating func propertyStereotypes(owner: Int, optional: PlistNode, renaming: String?) -> [(String, PlistNode)] {
        var values: [(String, PlistNode)] = [
            ("XD_PPSK_isOptional", optional), ("XD_PPSK_isTransient", .bool(false)),
            ("XD_PPSK_versionHashModifier", .uid(0)), ("XD_PPSK_isIndexed", .bool(false)),
            ("XD_PPSK_elementID", renaming.map { builder.string($0) } ?? .uid(0)),
            ("XD_PPSK_userInfo", builder.dictionary([])),
        ]
        values.removeAll { omitKeys.contains($0.0) }
        return [("XD_PPropStereotype", builder.stereotype("XD_PPropStereotype", owner: owner, values))]
    }

    mutating func attribute(_ name: String, owner: Int, type: PlistNode, optional: PlistNode, defaultValue: String?, renaming: String?) -> Int {
        let index = builder.add(.string("placeholder"))
        var stereotypes = propertyStereotypes(owner: index, optional: optional, renaming: renaming)
        var attributeValues: [(String, PlistNode)] = [
            ("XD_PAttK_attributeType", type),
            ("XD_PAttK_defaultValueAsString", defaultValue.map { builder.string($0) } ?? .uid(0)),
        ]
        attributeValues.removeAll { omitKeys.contains($0.0) }
        stereotypes.append(("XD_PAtt_Stereotype", builder.stereotype("XD_PAtt_Stereotype", owner: index, attributeValues)))
        let storage = builder.dictionary(stereotypes)
        let attributeClass = builder.classRef("XDPMAttribute", ["XDPMProperty", "XDUMLPropertyImp", "NSObject"])
        builder.objects[index] = .dict([
            ("_name", builder.string(name)), ("_owner", .uid(owner)), ("XDBucketForStereotypesstorage", storage),
            ("$class", attributeClass),
        ])
        return index
    }

    mutating func relationship(_ index: Int, _ name: String, owner: Int, destination: Int, inverse: Int,
                               toMany: Bool, ordered: Bool, deleteRule: Int) {
        var stereotypes = propertyStereotypes(owner: index, optional: .bool(true), renaming: nil)
        var values: [(String, PlistNode)] = [
            ("XD_PRK_destination", .uid(destination)), ("XD_PRK_inverseRelationship", .uid(inverse)),
            ("XD_PRK_isToMany", .bool(toMany)), ("XD_PRK_ordered", .bool(ordered)),
            ("XD_PRK_minCount", .int(0)), ("XD_PRK_maxCount", .int(toMany ? 0 : 1)), ("XD_PRK_deleteRule", .int(deleteRule)),
        ]
        values.removeAll { omitKeys.contains($0.0) }
        stereotypes.append(("XD_PR_Stereotype", builder.stereotype("XD_PR_Stereotype", owner: index, values)))
        let storage = builder.dictionary(stereotypes)
        let relationshipClass = builder.classRef("XDPMRelationship", ["XDPMProperty", "XDUMLPropertyImp", "NSObject"])
        builder.objects[index] = .dict([
            ("_name", builder.string(name)), ("_owner", .uid(owner)), ("XDBucketForStereotypesstorage", storage),
            ("$class", relationshipClass),
        ])
    }

    mutating func entity(_ index: Int, name: String, modifier: String?, generalizations: [PlistNode],
                         properties: [(String, PlistNode)]) {
        var values: [(String, PlistNode)] = [
            ("XD_PSK_isAbstract", .bool(false)), ("XD_PSK_elementID", .uid(0)),
            ("XD_PSK_versionHashModifier", modifier.map { builder.string($0) } ?? .uid(0)),
            ("XD_PSK_entityClassName", builder.string(name)),
            ("XDPMUniquenessConstraints", builder.array([])),
            ("XD_PSK_userInfo", builder.dictionary([])),
        ]
        values.removeAll { omitKeys.contains($0.0) }
        let stereotypes = builder.dictionary([("XD_PStereotype", builder.stereotype("XD_PStereotype", owner: index, values))])
        let owned = builder.dictionary(properties)
        let generalizationArray = builder.array(generalizations)
        let entityClass = builder.classRef("XDPMEntity", ["XDUMLClassImp", "NSObject"])
        builder.objects[index] = .dict([
            ("_name", index == creatureIndex ? (entityName ?? builder.string(name)) : builder.string(name)),
            ("_owner", .uid(packageIndex)), ("_isAbstract", .bool(false)),
            ("XDBucketForStereotypesstorage", stereotypes), ("XDBucketForOwnedAttributesstorage", owned),
            ("XDBucketForGeneralizationsstorage", generalizationArray),
            ("$class", entityClass),
        ])
    }

    /// Builds the archive bytes.
    mutating func build() -> [UInt8] {
        modelIndex = builder.add(.string("placeholder"))
        packageIndex = builder.add(.string("placeholder"))
        creatureIndex = builder.add(.string("placeholder"))
        fishIndex = builder.add(.string("placeholder"))
        let children = builder.add(.string("placeholder"))
        let parent = builder.add(.string("placeholder"))
        nameAttributeIndex = attribute("name", owner: creatureIndex, type: attributeTypeValue, optional: optionalValue,
                                       defaultValue: nil, renaming: nil)
        let legs = attribute("legs", owner: creatureIndex, type: .int(100), optional: .bool(false), defaultValue: "4", renaming: "feet")
        relationship(children, "children", owner: creatureIndex, destination: creatureIndex, inverse: parent,
                     toMany: true, ordered: true, deleteRule: 2)
        relationship(parent, "parent", owner: creatureIndex, destination: creatureIndex, inverse: children,
                     toMany: false, ordered: false, deleteRule: 1)
        entity(creatureIndex, name: "Creature", modifier: nil, generalizations: [], properties: [
            ("name", .uid(nameAttributeIndex)), ("legs", .uid(legs)), ("children", .uid(children)), ("parent", .uid(parent)),
        ])
        let generalizationClass = builder.classRef("XDUMLGeneralizationImp")
        let generalization = builder.add(.dict([
            ("_general", generalTarget ?? .uid(creatureIndex)), ("_specific", .uid(fishIndex)), ("$class", generalizationClass),
        ]))
        entity(fishIndex, name: "Fish", modifier: "v2", generalizations: [.uid(generalization)], properties: [])
        let classes = classesStorage ?? builder.dictionary([("Creature", .uid(creatureIndex)), ("Fish", .uid(fishIndex))])
        let packageClass = builder.classRef("XDModelPackage")
        builder.objects[packageIndex] = .dict([
            ("_xd_owningModel", .uid(modelIndex)), ("XDBucketForClassesstorage", classes), ("$class", packageClass),
        ])
        let modelClass = builder.classRef("XDPMModel", ["XDModel", "NSObject"])
        builder.objects[modelIndex] = .dict([
            ("_xd_rootPackage", .uid(packageIndex)), ("_modelVersionIdentifier", builder.string("1.0")), ("$class", modelClass),
        ])
        return builder.archive(root: modelIndex)
    }
}

/// Writes mapping model folders into a fresh temporary directory.
struct TemporaryMappingFolder {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("chainplan-mapping-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Writes `Name.xcmappingmodel/xcmapping.xml` and returns the folder URL.
    @discardableResult
    func write(_ name: String, xml: String) throws -> URL {
        try write(name, data: Data(xml.utf8))
    }

    @discardableResult
    func write(_ name: String, data: Data) throws -> URL {
        let folder = root.appendingPathComponent("\(name).xcmappingmodel", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: folder.appendingPathComponent("xcmapping.xml"))
        return folder
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// A minimal `xcmapping.xml` embedding the given snapshots (base64, wrapped like Xcode's).
    static func document(source: [UInt8]?, destination: [UInt8]?,
                         sourcePath: String = "Model/Zoo.xcdatamodeld/Zoo.xcdatamodel",
                         destinationPath: String = "Model/Zoo.xcdatamodeld/Zoo 2.xcdatamodel",
                         sourceBase64: String? = nil) -> String {
        func wrapped(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        }
        var lines = [
            "<?xml version=\"1.0\" standalone=\"yes\"?>",
            "<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">",
            "",
            "<database>",
            "    <object type=\"XDDEVENTITYMAPPING\" id=\"z102\">",
            "        <attribute name=\"sourcename\" type=\"string\">Creature</attribute>",
            "        <attribute name=\"mappingtypename\" type=\"string\">Undefined</attribute>",
            "        <attribute name=\"mappingnumber\" type=\"int16\">1</attribute>",
            "        <attribute name=\"destinationname\" type=\"string\">Creature</attribute>",
            "        <attribute name=\"migrationpolicyclassname\" type=\"string\">ZooPolicy</attribute>",
            "        <relationship name=\"attributemappings\" type=\"0/0\" destination=\"XDDEVATTRIBUTEMAPPING\" idrefs=\"z104 z103\"></relationship>",
            "    </object>",
            "    <object type=\"XDDEVATTRIBUTEMAPPING\" id=\"z103\">",
            "        <attribute name=\"name\" type=\"string\">name</attribute>",
            "    </object>",
            "    <object type=\"XDDEVATTRIBUTEMAPPING\" id=\"z104\">",
            "        <attribute name=\"valueexpressiondata\" type=\"binary\">YnBsaXN0MDA=</attribute>",
            "        <attribute name=\"name\" type=\"string\">legs</attribute>",
            "    </object>",
            "    <object type=\"XDDEVMAPPINGMODEL\" id=\"z105\">",
            "        <attribute name=\"sourcemodelpath\" type=\"string\">\(sourcePath)</attribute>",
        ]
        if let sourceBase64 {
            lines.append("        <attribute name=\"sourcemodeldata\" type=\"binary\">\(sourceBase64)</attribute>")
        } else if let source {
            lines.append("        <attribute name=\"sourcemodeldata\" type=\"binary\">\(wrapped(source))</attribute>")
        }
        lines.append("        <attribute name=\"destinationmodelpath\" type=\"string\">\(destinationPath)</attribute>")
        if let destination {
            lines.append("        <attribute name=\"destinationmodeldata\" type=\"binary\">\(wrapped(destination))</attribute>")
        }
        lines += [
            "        <relationship name=\"entitymappings\" type=\"0/0\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"z102\"></relationship>",
            "    </object>",
            "</database>",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
