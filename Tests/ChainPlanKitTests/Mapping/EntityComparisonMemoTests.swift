import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// The memo of entity comparisons (`EntityComparisonMemo`) matches on everything a comparison
/// reads: a base source is inferred to a fixed destination through a memo, then a source that
/// differs in one thing the comparison of one entity reads (the entity's content, or a fact of
/// the rest of the source model) through the same memo. The memoised mapping must equal the
/// unmemoised one (so the memo did not miss the difference) and differ from the base's for that
/// entity (so the case does exercise it). Each pair is also run in the other order.
struct EntityComparisonMemoTests {
    static func view(_ entities: String, name: String, lead: String = "") -> ResolvedView? {
        SQLiteWorkMemoTests.model(entities, name: name, lead: lead).map { ResolvedView($0) }
    }

    static func infer(_ source: ResolvedView, _ destination: ResolvedView, file: String, memo: EntityComparisonMemo? = nil) -> InferredMapping {
        MappingInference.infer(from: source, to: destination, sourceFile: file, destinationFile: "T.xcdatamodel/contents", memo: memo)
    }

    // The note case: Note (child of abstract Base) loses `tag`, which the destination makes an
    // entity; its title becomes mandatory; `folder` points at Folder, renamed Binder here.
    static func note(title: String = #"optional="YES" attributeType="String""#, folder: String = "") -> String {
        #"<entity name="Note" parentEntity="Base"><attribute name="title" "# + title + "/>"
            + #"<attribute name="tag" optional="YES" attributeType="String"/>"#
            + #"<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder""# + folder + "/></entity>"
    }

    static let base = #"<entity name="Base" isAbstract="YES"/>"#
    static let folder = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    static let noteSource = note() + base + folder
    static let noteDestination = #"<entity name="Note" parentEntity="Base"><attribute name="title" optional="NO" attributeType="String"/>"#
        + #"<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Binder"/></entity>"#
        + base + #"<entity name="Binder" renamingIdentifier="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        + #"<entity name="Tag"/>"#

    // The merge case: C's parent P is removed; whether P sits under A decides whether A's
    // hierarchy merges two source hierarchies (`inMerge`, which changes C's finding).
    static let mergeDestination = #"<entity name="A"/><entity name="B" parentEntity="A"/>"#
        + #"<entity name="C" parentEntity="A"><attribute name="x" optional="NO" attributeType="String" defaultValueString="x"/></entity>"#
    static func mergeSource(pUnderA: Bool) -> String {
        #"<entity name="A"/><entity name="B" parentEntity="A"/><entity name="P""# + (pUnderA ? #" parentEntity="A""# : "") + "/>"
            + #"<entity name="C" parentEntity="P"><attribute name="x" optional="YES" attributeType="String"/></entity>"#
    }

    // The moved-down case: abstract Item loses `price`; it moves down into its subentities
    // when every concrete one keeps it (Book does, Pen does not).
    static let itemDestination = #"<entity name="Item" isAbstract="YES"/>"#
        + #"<entity name="Book" parentEntity="Item"><attribute name="price" optional="YES" attributeType="Double"/></entity><entity name="Pen" parentEntity="Item"/>"#
    static let itemSource = #"<entity name="Item" isAbstract="YES"><attribute name="price" optional="YES" attributeType="Double"/></entity>"#
        + #"<entity name="Book" parentEntity="Item"/>"#

    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        var base: String
        var changed: String
        var destination: String
        /// The entity whose comparison the change concerns (its source content is the same in
        /// both, except for the content cases).
        var entity: String
        var testDescription: String { title }
    }

    static let cases: [Case] = [
        // Content of the source entity.
        Case(title: "content: an attribute's type", base: noteSource,
             changed: note(title: #"optional="YES" attributeType="Date""#) + base + folder, destination: noteDestination, entity: "Note"),
        Case(title: "content: an attribute's renaming identifier", base: noteSource,
             changed: note(title: #"optional="YES" attributeType="String" renamingIdentifier="caption""#) + base + folder,
             destination: noteDestination, entity: "Note"),
        Case(title: "content: a relationship's inverse", base: noteSource,
             changed: note(folder: #" inverseName="notes" inverseEntity="Folder""#) + base
                + #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/></entity>"#,
             destination: noteDestination, entity: "Note"),
        Case(title: "content: the entity becomes abstract", base: noteSource,
             changed: note().replacingOccurrences(of: #"parentEntity="Base""#, with: #"parentEntity="Base" isAbstract="YES""#) + base + folder,
             destination: noteDestination, entity: "Note"),
        // Facts of the rest of the source model (probes).
        Case(title: "lineage of the parent: Base is keyed otherwise, so its rows go nowhere", base: noteSource,
             changed: note() + #"<entity name="Base" isAbstract="YES" renamingIdentifier="Old"/>"# + folder, destination: noteDestination, entity: "Note"),
        Case(title: "lineage of a relationship destination: Folder is keyed otherwise, so its rows go nowhere", base: noteSource,
             changed: note() + base + #"<entity name="Folder" renamingIdentifier="Other"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
             destination: noteDestination, entity: "Note"),
        Case(title: "lower-cased entity names: the source has an entity Tag too", base: noteSource,
             changed: noteSource + #"<entity name="Tag"/>"#, destination: noteDestination, entity: "Note"),
        Case(title: "hierarchy merge (inMerge): P no longer under A", base: mergeSource(pUnderA: true),
             changed: mergeSource(pUnderA: false), destination: mergeDestination, entity: "C"),
        Case(title: "subentities (moved down): a concrete Pen without price", base: itemSource,
             changed: itemSource + #"<entity name="Pen" parentEntity="Item"/>"#, destination: itemDestination, entity: "Item"),
    ]

    /// What the mapping says of one entity.
    static func outcome(_ mapping: InferredMapping, of entity: String) -> [String] {
        mapping.changes.filter { $0.entity == entity }.map { "\($0.kind) \($0.detail) \($0.code?.rawValue ?? "-") \($0.verdict)" }
            + mapping.entityMappings.filter { $0.destination == entity }.map { "\($0)" }
            + mapping.validation.filter { $0.entity == entity }.map { "\($0)" }
    }

    @Test(arguments: cases)
    func changedFieldIsNotAHit(_ example: Case) throws {
        let destination = try #require(Self.view(example.destination, name: "T"))
        let base = try #require(Self.view(example.base, name: "V1"))
        let changed = try #require(Self.view(example.changed, name: "V2"))
        let file = "V.xcdatamodel/contents"
        let plainBase = Self.infer(base, destination, file: file)
        let plainChanged = Self.infer(changed, destination, file: file)
        #expect(Self.outcome(plainBase, of: example.entity) != Self.outcome(plainChanged, of: example.entity))
        // The entity is compared through the memo: both sources have a content, other than the
        // destination's.
        for source in [base, changed] {
            let content = try #require(source.entity(example.entity)?.content)
            #expect(content != destination.entity(example.entity)?.content)
        }
        for order in [[base, changed], [changed, base]] {
            let memo = EntityComparisonMemo(destination: "T")
            for source in order {
                #expect(Self.infer(source, destination, file: file, memo: memo) == Self.infer(source, destination, file: file))
            }
        }
    }

    /// The same source content on other lines of another file: a hit, with every change placed
    /// at the new source's lines and file (a removal and an attribute replaced by an entity).
    @Test func equalContentElsewhereIsAHitPlacedAtItsOwnLines() throws {
        let destination = try #require(Self.view(Self.noteDestination, name: "T"))
        let first = try #require(Self.view(Self.noteSource + #"<entity name="Gone"/>"#, name: "V1"))
        let moved = try #require(Self.view(Self.noteSource + #"<entity name="Gone"/>"#, name: "V2", lead: "\n\n\n<!-- moved -->\n"))
        let memo = EntityComparisonMemo(destination: "T")
        let one = Self.infer(first, destination, file: "V1.xcdatamodel/contents", memo: memo)
        #expect(memo.hits == 0)
        let two = Self.infer(moved, destination, file: "V2.xcdatamodel/contents", memo: memo)
        #expect(memo.hits == 2) // Note and Folder (Base equals its destination: no comparison to keep)
        #expect(one == Self.infer(first, destination, file: "V1.xcdatamodel/contents"))
        #expect(two == Self.infer(moved, destination, file: "V2.xcdatamodel/contents"))
        let placed = two.changes.filter { $0.property == "tag" }
        #expect(placed.count == 1)
        #expect(placed.first?.location?.file == "V2.xcdatamodel/contents")
        #expect(placed.first?.location?.line != one.changes.first { $0.property == "tag" }?.location?.line)
        // The moved-down answer and a property becoming transient, on their own lines too.
        let items = try #require(Self.view(Self.itemDestination, name: "T"))
        let transient = #"<entity name="Item" isAbstract="YES"><attribute name="price" optional="YES" attributeType="Double"/><attribute name="note" optional="YES" attributeType="String"/></entity><entity name="Book" parentEntity="Item"/>"#
        let transientDestination = try #require(Self.view(Self.itemDestination.replacingOccurrences(
            of: #"<entity name="Item" isAbstract="YES"/>"#,
            with: #"<entity name="Item" isAbstract="YES"><attribute name="note" optional="YES" transient="YES" attributeType="String"/></entity>"#), name: "T"))
        for target in [items, transientDestination] {
            let a = try #require(Self.view(transient, name: "V1"))
            let b = try #require(Self.view(transient, name: "V2", lead: "\n\n"))
            let shared = EntityComparisonMemo(destination: "T")
            #expect(Self.infer(a, target, file: "a", memo: shared) == Self.infer(a, target, file: "a"))
            #expect(shared.hits == 0)
            #expect(Self.infer(b, target, file: "b", memo: shared) == Self.infer(b, target, file: "b"))
            #expect(shared.hits >= 1)
        }
    }

    /// A memo is used only by inferences ending at its destination version.
    @Test func memoOfAnotherDestinationIsIgnored() throws {
        let destination = try #require(ModelContentsParser().parse(Data(("<?xml version=\"1.0\"?><model>" + Self.noteDestination + "</model>").utf8),
                                                                   file: "T/contents", version: "T").model)
        let source = try #require(ModelContentsParser().parse(Data(("<?xml version=\"1.0\"?><model>" + Self.noteSource + "</model>").utf8),
                                                              file: "V/contents", version: "V").model)
        let bundle = ModelBundle(name: "M", path: "M.xcdatamodeld", versions: [
            ModelVersion(name: "V", path: "V/contents", model: source), ModelVersion(name: "T", path: "T/contents", model: destination),
        ], currentVersion: "T")
        let classifier = StepClassifier(bundle: bundle)
        let elsewhere = EntityComparisonMemo(destination: "V")
        _ = classifier.classify(from: "V", to: "T", memo: elsewhere)
        _ = classifier.classify(from: "V", to: "T", memo: elsewhere)
        #expect(elsewhere.hits == 0)
        let here = EntityComparisonMemo(destination: "T")
        let first = classifier.classify(from: "V", to: "T", memo: here)
        let second = classifier.classify(from: "V", to: "T", memo: here)
        #expect(here.hits == 2)
        #expect(first.0 == second.0 && first.1 == second.1)
        #expect(first.0 == classifier.classify(from: "V", to: "T").0)
    }
}
