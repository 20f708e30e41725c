import Testing
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// `Lineage.followed(by:)`: a step that keeps every name (an identity lineage) composes by
/// trimming the next lineage instead of building a new one; the result must equal the general
/// composition, entry for entry, whatever the two lineages hold.
struct LineageCompositionTests {
    /// The general composition, written out as the definition: `from → next[self[from]]`.
    static func composedByDefinition(_ first: Lineage, _ next: Lineage) -> ([String: String], [PropertyKey: PropertyKey]) {
        var entities: [String: String] = [:]
        for (from, to) in first.entities { if let final = next.entities[to] { entities[from] = final } }
        var properties: [PropertyKey: PropertyKey] = [:]
        for (from, to) in first.properties { if let final = next.properties[to] { properties[from] = final } }
        return (entities, properties)
    }

    static func lineage(_ entities: [(String, String)], _ properties: [((String, String), (String, String))]) -> Lineage {
        Lineage(entities: Dictionary(uniqueKeysWithValues: entities),
                properties: Dictionary(uniqueKeysWithValues: properties.map { (PropertyKey($0.0.0, $0.0.1), PropertyKey($0.1.0, $0.1.1)) }))
    }

    /// (step, next): a step keeping every name, one adding `Note.body` (not in the step, in
    /// next), one dropping `Tag` (in the step, not in next), one renaming (not an identity),
    /// and an empty step.
    static let cases: [(String, Lineage, Lineage)] = {
        let next = lineage([("Note", "Note"), ("Tag", "Label")],
                           [(("Note", "title"), ("Note", "heading")), (("Note", "body"), ("Note", "body")), (("Tag", "name"), ("Label", "name"))])
        return [
            ("keeps every name", lineage([("Note", "Note"), ("Tag", "Tag")],
                                         [(("Note", "title"), ("Note", "title")), (("Note", "body"), ("Note", "body")), (("Tag", "name"), ("Tag", "name"))]), next),
            ("added body", lineage([("Note", "Note"), ("Tag", "Tag")],
                                   [(("Note", "title"), ("Note", "title")), (("Tag", "name"), ("Tag", "name"))]), next),
            ("carries what next drops", lineage([("Note", "Note"), ("Folder", "Folder")],
                                                [(("Note", "title"), ("Note", "title")), (("Folder", "name"), ("Folder", "name"))]), next),
            ("renames", lineage([("Memo", "Note"), ("Tag", "Tag")],
                                [(("Memo", "text"), ("Note", "title")), (("Tag", "name"), ("Tag", "name"))]), next),
            ("empty", Lineage(), next),
        ]
    }()

    @Test(arguments: cases.indices)
    func composingEqualsTheDefinition(_ index: Int) {
        let (name, step, next) = Self.cases[index]
        let composed = step.followed(by: next)
        let expected = Self.composedByDefinition(step, next)
        #expect(composed.entities == expected.0, "\(name)")
        #expect(composed.properties == expected.1, "\(name)")
        // Composed once more (as a chain does, backwards from the target): still the definition.
        let twice = step.followed(by: composed)
        let expectedTwice = Self.composedByDefinition(step, composed)
        #expect(twice.entities == expectedTwice.0, "\(name)")
        #expect(twice.properties == expectedTwice.1, "\(name)")
    }

    @Test func onlyAStepKeepingEveryNameIsAnIdentity() {
        #expect(Self.cases[0].1.isIdentity)
        #expect(Self.cases[1].1.isIdentity)
        #expect(!Self.cases[3].1.isIdentity)
        // A composed lineage is never taken for one (its names are the first step's, its values the last's).
        #expect(!Self.cases[0].1.followed(by: Self.cases[0].1).isIdentity)
        var edited = Self.cases[0].1
        edited.properties[PropertyKey("Note", "title")] = PropertyKey("Note", "heading")
        #expect(!edited.isIdentity)
    }
}
