import ChainPlanCore
import ChainPlanGraph
import ChainPlanInference
import ChainPlanReaders
import Foundation

/// A worked example of a classification finding: successive versions of a small model (the
/// entities of each version's `contents`), optionally a mapping model on the first step, and the
/// findings of the rule's code the chain must raise. `chainplan rules CPnnn` prints and runs them;
/// so does their test.
public struct ClassificationExample: Sendable, Hashable, CustomStringConvertible {
    public var title: String
    /// The `<entity>` elements of each version, oldest first (versions `V1`, `V2`, …).
    public var versions: [String]
    /// A mapping model covers the step `V1` → `V2`.
    public var mappingModelOnFirstStep: Bool
    /// How many findings of the rule's code the chain raises (0: the example must not trigger).
    public var expected: Int

    public init(_ title: String, versions: [String], mappingModelOnFirstStep: Bool = false, expected: Int) {
        self.title = title
        self.versions = versions
        self.mappingModelOnFirstStep = mappingModelOnFirstStep
        self.expected = expected
    }

    public var description: String { title }

    /// The version names, `V1`, `V2`, ….
    public var names: [String] { versions.indices.map { "V\($0 + 1)" } }

    /// Classifies the chain `V1 → V2 → …` with the real parser and classifier.
    public func run() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var modelVersions: [ModelVersion] = []
        for (name, entities) in zip(names, versions) {
            let path = "Example.xcdatamodeld/\(name).xcdatamodel/contents"
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
            let parsed = ModelContentsParser().parse(Data(text.utf8), file: path, version: name)
            diagnostics += parsed.diagnostics
            modelVersions.append(ModelVersion(name: name, path: path, model: parsed.model))
        }
        let bundle = ModelBundle(name: "Example", path: "Example.xcdatamodeld", versions: modelVersions, currentVersion: names.last)
        let spec = ChainSpec.inferred(versions: names, file: "chain.json")
        let context = ChainContext(spec: spec, graph: ChainGraph.build(from: spec), bundle: bundle, isInferred: false)
        let mappings = mappingModelOnFirstStep && names.count > 1
            ? [StepKey(from: names[0], to: names[1]): StepMappingModel(path: "V1ToV2.xcmappingmodel")] : [:]
        return (diagnostics + ChainClassification(context: context, bundle: bundle, mappingModels: mappings).diagnostics).sorted()
    }
}

/// The examples of each classification code.
public enum ClassificationExamples {
    static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let pinnedNoDefault = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="pinned" attributeType="Boolean"/></entity>"#
    static let pinnedWithDefault = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/></entity>"#
    static let tag = #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    static let folder = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    static let toManyTags = note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag
    static let toOneTags = note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag

    public static func examples(for code: DiagnosticCode) -> [ClassificationExample] {
        switch code {
        case .notInferable: [
            ClassificationExample("a to-many relationship becomes to-one, no mapping model", versions: [toManyTags, toOneTags], expected: 1),
            ClassificationExample("the same step with a mapping model", versions: [toManyTags, toOneTags], mappingModelOnFirstStep: true, expected: 0),
        ]
        case .renameWithoutIdentifier: [
            ClassificationExample("an attribute renamed without a renaming identifier", versions: [
                #"<entity name="Note"><attribute name="fecha" optional="YES" attributeType="Date"/></entity>"#,
                #"<entity name="Note"><attribute name="momento" optional="YES" attributeType="Date"/></entity>"#,
            ], expected: 1),
            ClassificationExample("renamed with the old name as renaming identifier", versions: [
                #"<entity name="Note"><attribute name="fecha" optional="YES" attributeType="Date"/></entity>"#,
                #"<entity name="Note"><attribute name="momento" optional="YES" attributeType="Date" elementID="fecha"/></entity>"#,
            ], expected: 0),
        ]
        case .couldFailValidation: [
            ClassificationExample("a new non-optional attribute without a default (infers; fails on stores with a Note)", versions: [note, pinnedNoDefault], expected: 1),
            ClassificationExample("with a default value", versions: [note, pinnedWithDefault], expected: 0),
        ]
        case .attributeTypeChange: [
            ClassificationExample("String becomes Integer 64", versions: [
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#,
            ], expected: 1),
            ClassificationExample("Integer 16 becomes Decimal (converted)", versions: [
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/></entity>"#,
                #"<entity name="Item"><attribute name="quantity" optional="YES" attributeType="Decimal"/></entity>"#,
            ], expected: 0),
        ]
        case .hierarchyChange: [
            ClassificationExample("two separate entities get a common parent", versions: [
                #"<entity name="Car"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity><entity name="Boat"><attribute name="keel" optional="YES" attributeType="Integer 16"/></entity>"#,
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity><entity name="Boat" parentEntity="Vehicle"><attribute name="keel" optional="YES" attributeType="Integer 16"/></entity>"#,
            ], expected: 1),
            ClassificationExample("the hierarchy is unchanged", versions: [
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity>"#,
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 32"/></entity>"#,
            ], expected: 0),
        ]
        case .mappingModelOnInferableStep: [
            ClassificationExample("a mapping model on a step that adds an optional attribute", versions: [note, note.replacingOccurrences(of: "</entity>", with: #"<attribute name="body" optional="YES" attributeType="String"/></entity>"#)],
                                  mappingModelOnFirstStep: true, expected: 1),
            ClassificationExample("the same step without a mapping model", versions: [note, note.replacingOccurrences(of: "</entity>", with: #"<attribute name="body" optional="YES" attributeType="String"/></entity>"#)],
                                  expected: 0),
        ]
        case .directJumpFails: [
            ClassificationExample("dropped, then added again with another type", versions: [
                note, #"<entity name="Note"/>"#,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#,
            ], expected: 1),
            ClassificationExample("each step and the direct jump infer", versions: [note, pinnedWithDefault, pinnedWithDefault.replacingOccurrences(of: "</entity>", with: #"<attribute name="body" optional="YES" attributeType="String"/></entity>"#)],
                                  expected: 0),
        ]
        case .dataRemoved: [
            ClassificationExample("an attribute is removed", versions: [pinnedWithDefault, note], expected: 1),
            ClassificationExample("an attribute is added", versions: [note, pinnedWithDefault], expected: 0),
        ]
        case .unverifiedChange: [
            ClassificationExample("a relationship points at another surviving entity (outcome unverified)", versions: [
                note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag + folder,
                note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#) + tag + folder,
            ], expected: 1),
            ClassificationExample("a to-one relationship becomes to-many", versions: [toOneTags, toManyTags], expected: 0),
        ]
        case .duplicateRenamingIdentifier: [
            ClassificationExample("renamed with the old name as identifier, then a new entity takes the old name", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Memo" elementID="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 1),
            ClassificationExample("renamed only", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Memo" elementID="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 0),
        ]
        case .propertyKindChange: [
            ClassificationExample("a text attribute becomes a relationship to a new entity", versions: [
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Nota"><relationship name="categoria" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Categoria"/></entity><entity name="Categoria"><attribute name="nombre" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 1),
            ClassificationExample("a relationship added beside the attribute", versions: [
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Nota"><attribute name="categoria" optional="YES" attributeType="String"/><relationship name="grupo" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Categoria"/></entity><entity name="Categoria"><attribute name="nombre" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 0),
        ]
        default: []
        }
    }
}
