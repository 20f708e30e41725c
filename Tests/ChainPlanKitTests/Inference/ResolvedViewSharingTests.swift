import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// A resolved view built with the previous version's view as a hint (`ResolvedView(_:previous:)`)
/// keeps that version's entity contents and hash inputs where they are equal: what it holds must
/// be exactly what building without the hint gives.
struct ResolvedViewSharingTests {
    static func view(_ entities: String, previous: ResolvedView? = nil) -> ResolvedView? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "contents").model.map { ResolvedView($0, previous: previous) }
    }

    /// The contents and hash inputs of `view`, by entity, to compare two views.
    static func contents(_ view: ResolvedView) -> [String: EntityContent?] {
        Dictionary(view.entities.map { ($0.entity.name, $0.content) }, uniquingKeysWith: { first, _ in first })
    }

    static let base = #"<entity name="Base" isAbstract="YES"><attribute name="id" optional="YES" attributeType="String"/></entity>"#
        + #"<entity name="Note" parentEntity="Base"><attribute name="title" optional="YES" attributeType="String"/>"#
        + #"<relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#
        + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#

    /// Each a change of one thing the content or the hash inputs of Note hold, beside lines.
    @Test(arguments: [
        ("only lines", "\n\n" + base),
        ("an attribute's default", base.replacingOccurrences(of: #"name="title" optional="YES""#, with: #"name="title" optional="YES" defaultValueString="x""#)),
        ("an inherited attribute's type", base.replacingOccurrences(of: #"name="id" optional="YES" attributeType="String""#, with: #"name="id" optional="YES" attributeType="UUID""#)),
        ("the parent", base.replacingOccurrences(of: #" parentEntity="Base""#, with: "")),
        ("a relationship's destination", base.replacingOccurrences(of: #"destinationEntity="Tag""#, with: #"destinationEntity="Base""#)),
        ("the entity's renaming identifier", base.replacingOccurrences(of: #"entity name="Note""#, with: #"entity name="Note" renamingIdentifier="Memo""#)),
        ("a uniqueness constraint", base.replacingOccurrences(of: #"<entity name="Tag">"#, with: #"<entity name="Tag"><uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>"#)),
        ("a composite attribute", base.replacingOccurrences(of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
                                                            with: #"<attribute name="title" optional="YES" attributeType="Composite" composite="Name"/>"#)
            + #"<composite name="Name"><attribute name="first" optional="YES" attributeType="String"/></composite>"#),
    ])
    func hintedViewEqualsBuiltView(_ change: String, _ next: String) throws {
        let previous = try #require(Self.view(Self.base))
        let hinted = try #require(Self.view(next, previous: previous))
        let built = try #require(Self.view(next))
        #expect(Self.contents(hinted) == Self.contents(built), "\(change)")
        #expect(hinted.hashInputs == built.hashInputs, "\(change)")
        // And inference reads the same from either.
        #expect(MappingInference.infer(from: previous, to: hinted) == MappingInference.infer(from: previous, to: built), "\(change)")
        #expect(MappingInference.infer(from: hinted, to: previous) == MappingInference.infer(from: built, to: previous), "\(change)")
        if change != "only lines" {
            #expect(Self.contents(hinted)["Note"] != Self.contents(previous)["Note"] || hinted.hashInputs != previous.hashInputs, "\(change)")
        }
    }
}

extension CorpusTests {
    /// Every version of every corpus bundle resolved with its predecessor as a hint holds the
    /// contents and hash inputs it holds resolved alone (as `StepClassifier` resolves them, in
    /// runs of consecutive versions).
    @Suite struct ResolvedViewSharingCorpusTests {
        /// Every `.xcdatamodeld` of the corpus that reads, with its path relative to it, sorted.
        static func loadedBundles() -> [(path: String, bundle: ModelBundle)] {
            let root = SharedCorpus.corpus
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
            var found: [String] = []
            for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
                found.append(String(url.path.dropFirst(root.path.count + 1)))
                walker.skipDescendants()
            }
            return found.sorted().compactMap { path in ChainPlanner().bundle(inputAt: root.appendingPathComponent(path)).map { (path, $0) } }
        }

        @Test func hintedViewsEqualBuiltViews() throws {
            let loaded = Self.loadedBundles()
            #expect(loaded.count > 10)
            var versions = 0
            for (path, bundle) in loaded {
                var previous: ResolvedView?
                for version in bundle.versions {
                    guard let model = version.model else { continue }
                    let hinted = ResolvedView(model, previous: previous)
                    let built = ResolvedView(model)
                    #expect(ResolvedViewSharingTests.contents(hinted) == ResolvedViewSharingTests.contents(built), "\(path): \(version.name)")
                    #expect(hinted.hashInputs == built.hashInputs, "\(path): \(version.name)")
                    previous = hinted
                    versions += 1
                }
            }
            #expect(versions > 250)
        }
    }
}
