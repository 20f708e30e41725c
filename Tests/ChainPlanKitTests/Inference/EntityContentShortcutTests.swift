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

/// Entities of equal content skip the property-by-property comparison (`EntityContent`): the
/// inferred mapping must be exactly the one the full comparison gives. Each pair is inferred
/// twice, once as it is and once with every content removed (which forces the full comparison).
enum EntityContentShortcut {
    /// `view` with no entity eligible for the shortcut.
    static func withoutShortcut(_ view: ResolvedView) -> ResolvedView {
        var copy = view
        for index in copy.entities.indices { copy.entities[index].content = nil }
        return copy
    }

    /// The mapping inferred with the shortcut and without it.
    static func both(_ source: ResolvedView, _ destination: ResolvedView) -> (shortcut: InferredMapping, full: InferredMapping) {
        (MappingInference.infer(from: source, to: destination, sourceFile: "a", destinationFile: "b"),
         MappingInference.infer(from: withoutShortcut(source), to: withoutShortcut(destination), sourceFile: "a", destinationFile: "b"))
    }
}

struct EntityContentShortcutTests {
    static func model(_ entities: String) -> ObjectModel? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "contents").model
    }

    /// Every example of every inference rule, and each example's source against itself (all equal).
    @Test(arguments: InferenceRuleCatalogueTests.cases)
    func ruleExamplesInferTheSame(_ c: InferenceRuleCatalogueTests.Case) throws {
        let versions = try #require(c.versions)
        let source = ResolvedView(try #require(Self.model(versions.source)))
        let destination = ResolvedView(try #require(Self.model(versions.destination)))
        let (shortcut, full) = EntityContentShortcut.both(source, destination)
        #expect(shortcut == full)
        let (same, sameFull) = EntityContentShortcut.both(source, source)
        #expect(same == sameFull)
    }

    /// Equal entities whose surroundings change: a relationship's destination renamed or removed,
    /// a parent renamed, a property moved up into the parent. The shortcut must leave each of
    /// these to the full comparison (or give what it gives).
    @Test(arguments: [
        ("destination renamed",
         #"<entity name="Note"><relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
         #"<entity name="Note"><relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Label" renamingIdentifier="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="other" optional="YES" attributeType="String"/></entity>"#),
        ("destination removed and re-added",
         #"<entity name="Note"><relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Tag" renamingIdentifier="Old"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
         #"<entity name="Note"><relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#),
        ("parent renamed",
         #"<entity name="Base" isAbstract="YES"><attribute name="id" optional="YES" attributeType="String"/></entity><entity name="Child" parentEntity="Base"><attribute name="x" optional="YES" attributeType="String"/></entity>"#,
         #"<entity name="Root" isAbstract="YES" renamingIdentifier="Base"><attribute name="id" optional="YES" attributeType="String"/></entity><entity name="Child" parentEntity="Root"><attribute name="x" optional="YES" attributeType="String"/></entity>"#),
        ("property moved into the parent",
         #"<entity name="Base"><attribute name="id" optional="YES" attributeType="String"/></entity><entity name="Child" parentEntity="Base"><attribute name="x" optional="YES" attributeType="String"/></entity>"#,
         #"<entity name="Base"><attribute name="id" optional="YES" attributeType="String"/><attribute name="x" optional="YES" attributeType="String"/></entity><entity name="Child" parentEntity="Base"/>"#),
        ("renaming identifiers shared",
         #"<entity name="Item"><attribute name="a" optional="YES" attributeType="String" elementID="k"/><attribute name="b" optional="YES" attributeType="String" elementID="k"/></entity>"#,
         #"<entity name="Item"><attribute name="a" optional="YES" attributeType="String" elementID="k"/><attribute name="b" optional="YES" attributeType="String" elementID="k"/></entity>"#),
    ])
    func surroundingsChange(_ title: String, _ source: String, _ destination: String) throws {
        let (shortcut, full) = EntityContentShortcut.both(ResolvedView(try #require(Self.model(source))),
                                                          ResolvedView(try #require(Self.model(destination))))
        #expect(shortcut == full, "\(title)")
    }

    /// Locations are not content: the same entity written on other lines is equal; any other
    /// field is not.
    @Test func locationsAreNotContent() throws {
        let one = ResolvedView(try #require(Self.model(#"<entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity>"#)))
        let moved = ResolvedView(try #require(Self.model("\n\n" + #"<entity name="A">"# + "\n  " + #"<attribute name="x" optional="YES" attributeType="String"/></entity>"#)))
        let changed = ResolvedView(try #require(Self.model(#"<entity name="A"><attribute name="x" optional="YES" attributeType="String" defaultValueString="y"/></entity>"#)))
        #expect(one.entities[0].content != nil)
        #expect(one.entities[0].content == moved.entities[0].content)
        #expect(one.entities[0].content != changed.entities[0].content)
    }
}

extension CorpusTests {
    /// Every step of every corpus bundle in `steps.tsv`, and each bundle's jump from its first
    /// version to its last, infer the same with the shortcut as without it.
    @Suite struct EntityContentShortcutCorpusTests {
        static let bundles: [String] = Array(Set(CorpusAgreementTests.rows.map(\.bundle))).sorted()

        @Test(arguments: bundles)
        func stepsInferTheSame(_ bundle: String) throws {
            let versions = try TestModelLoader.bundle(at: TestPaths.corpus.appendingPathComponent(bundle))
            let views = versions.map { $0.model.map { ResolvedView($0) } }
            let pairs = CorpusAgreementTests.rows.filter { $0.bundle == bundle }.map { ($0.from, $0.to) }
                + [(versions.first?.name ?? "", versions.last?.name ?? "")]
            // The shortcut applies to real histories (else this would compare nothing new).
            #expect(views.contains { $0?.entities.contains { $0.content != nil } == true })
            var compared = 0
            for (from, to) in pairs {
                guard let s = versions.firstIndex(where: { $0.name == from }), let d = versions.firstIndex(where: { $0.name == to }),
                      let source = views[s], let destination = views[d] else { continue }
                let (shortcut, full) = EntityContentShortcut.both(source, destination)
                #expect(shortcut == full, "\(from) → \(to)")
                compared += 1
            }
            #expect(compared > 0)
        }
    }
}
