import Testing
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// `Lineage`: an entity compared unchanged is one entry (`UnchangedEntityLineage`) rather than
/// one per property. Composing two lineages and comparing one with another must give what the
/// written-out lineages give by definition, whichever mix of entries the two hold.
struct LineageCompositionTests {
    /// Composition by definition, on written-out lineages: `from → next[self[from]]`.
    static func composedByDefinition(_ first: Lineage, _ next: Lineage) -> ([String: String], [PropertyKey: PropertyKey]) {
        var entities: [String: String] = [:]
        for (from, to) in first.entities { if let final = next.entities[to] { entities[from] = final } }
        var properties: [PropertyKey: PropertyKey] = [:]
        let nextProperties = next.allProperties
        for (from, to) in first.allProperties { if let final = nextProperties[to] { properties[from] = final } }
        return (entities, properties)
    }

    /// What `lost(in:)` says by definition, on written-out lineages.
    static func lostByDefinition(_ chain: Lineage, _ direct: Lineage) -> [String] {
        let dropped = Set(chain.entities.filter { direct.entities[$0.key] != $0.value }.keys)
        var lost = Array(dropped)
        let directProperties = direct.allProperties
        for (from, to) in chain.allProperties where directProperties[from] != to && !dropped.contains(from.entity) {
            lost.append("\(from.entity).\(from.property)")
        }
        return lost.sorted()
    }

    static let noteNames = PropertyNames(["title", "body"])
    static let tagNames = PropertyNames(["name"])

    static func unchanged(_ entries: [(String, String, PropertyNames)]) -> [String: UnchangedEntityLineage] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.0, UnchangedEntityLineage(destination: $0.1, properties: $0.2)) })
    }

    static func lineage(_ entities: [(String, String)], _ properties: [((String, String), (String, String))],
                        unchanged entries: [(String, String, PropertyNames)] = []) -> Lineage {
        Lineage(entities: Dictionary(uniqueKeysWithValues: entities),
                properties: Dictionary(uniqueKeysWithValues: properties.map { (PropertyKey($0.0.0, $0.0.1), PropertyKey($0.1.0, $0.1.1)) }),
                unchanged: unchanged(entries))
    }

    /// Lineages over `Note { title, body }` and `Tag { name }`, unchanged or renamed, in every
    /// combination the cases below take two at a time.
    static let lineages: [(String, Lineage)] = [
        ("both unchanged", lineage([("Note", "Note"), ("Tag", "Tag")], [], unchanged: [("Note", "Note", noteNames), ("Tag", "Tag", tagNames)])),
        ("both unchanged, equal names in another object", lineage([("Note", "Note"), ("Tag", "Tag")], [],
                                                                  unchanged: [("Note", "Note", PropertyNames(["title", "body"])), ("Tag", "Tag", PropertyNames(["name"]))])),
        ("Note written out", lineage([("Note", "Note"), ("Tag", "Tag")], [(("Note", "title"), ("Note", "title")), (("Note", "body"), ("Note", "body"))],
                                     unchanged: [("Tag", "Tag", tagNames)])),
        ("title renamed heading", lineage([("Note", "Note"), ("Tag", "Tag")], [(("Note", "title"), ("Note", "heading")), (("Note", "body"), ("Note", "body"))],
                                          unchanged: [("Tag", "Tag", tagNames)])),
        ("body dropped", lineage([("Note", "Note"), ("Tag", "Tag")], [(("Note", "title"), ("Note", "title"))], unchanged: [("Tag", "Tag", tagNames)])),
        ("Tag renamed Label", lineage([("Note", "Note"), ("Tag", "Label")], [], unchanged: [("Note", "Note", noteNames), ("Tag", "Label", tagNames)])),
        ("Tag dropped", lineage([("Note", "Note")], [], unchanged: [("Note", "Note", noteNames)])),
        ("Note with fewer names", lineage([("Note", "Note"), ("Tag", "Tag")], [], unchanged: [("Note", "Note", PropertyNames(["title"])), ("Tag", "Tag", tagNames)])),
        ("empty", Lineage()),
    ]

    static let pairs: [(Int, Int)] = lineages.indices.flatMap { a in lineages.indices.map { b in (a, b) } }

    @Test(arguments: pairs.indices)
    func composingEqualsTheDefinition(_ index: Int) {
        let (a, b) = Self.pairs[index]
        let (first, next) = (Self.lineages[a].1, Self.lineages[b].1)
        let composed = first.followed(by: next)
        let expected = Self.composedByDefinition(first, next)
        #expect(composed.entities == expected.0, "\(Self.lineages[a].0) then \(Self.lineages[b].0)")
        #expect(composed.allProperties == expected.1, "\(Self.lineages[a].0) then \(Self.lineages[b].0)")
        // Composed once more (as a chain does, backwards from the target): still the definition.
        let twice = first.followed(by: composed)
        #expect(twice.allProperties == Self.composedByDefinition(first, composed).1)
    }

    @Test(arguments: pairs.indices)
    func lostEqualsTheDefinition(_ index: Int) {
        let (a, b) = Self.pairs[index]
        let (chain, direct) = (Self.lineages[a].1, Self.lineages[b].1)
        #expect(chain.lost(in: direct) == Self.lostByDefinition(chain, direct), "\(Self.lineages[a].0) against \(Self.lineages[b].0)")
    }

    @Test func unchangedEntitiesStayOneEntry() {
        // The example of `UnchangedEntityLineage`: written out, one entry per property.
        let note = Self.lineage([("Note", "Note")], [], unchanged: [("Note", "Note", Self.noteNames)])
        #expect(note.allProperties == [PropertyKey("Note", "title"): PropertyKey("Note", "title"), PropertyKey("Note", "body"): PropertyKey("Note", "body")])
        #expect(note.destination(of: PropertyKey("Note", "body")) == PropertyKey("Note", "body"))
        #expect(note.destination(of: PropertyKey("Note", "gone")) == nil)
        // Two unchanged steps compose into one entry, not a property at a time.
        let composed = Self.lineages[0].1.followed(by: Self.lineages[5].1)
        #expect(composed.properties.isEmpty)
        #expect(composed.unchanged["Tag"]?.destination == "Label")
        // Nothing is lost between equal lineages, by identity of the names or by their contents.
        #expect(Self.lineages[0].1.lost(in: Self.lineages[1].1).isEmpty)
        #expect(Self.lineages[0].1.lost(in: Self.lineages[2].1).isEmpty)
    }

    /// Inference writes an entity compared unchanged as one entry, and the written-out lineage is
    /// what it wrote property by property before.
    @Test func inferenceWritesUnchangedEntitiesAsOneEntry() {
        let v1 = M(E("Note", [.a("title", .string), .a("body", .string)]), E("Tag", [.a("name", .string)]))
        let v2 = M(E("Note", [.a("title", .string), .a("body", .string), .a("created", .date)]), E("Tag", [.a("name", .string)]))
        let mapping = MappingInference.infer(from: v1, to: v2)
        #expect(mapping.unchangedEntityLineage["Tag"]?.destination == "Tag")
        #expect(mapping.unchangedEntityLineage["Tag"]?.properties.names == ["name"])
        #expect(mapping.unchangedEntityLineage["Note"] == nil)
        #expect(mapping.propertyLineage == [
            PropertyKey("Note", "title"): PropertyKey("Note", "title"), PropertyKey("Note", "body"): PropertyKey("Note", "body"),
            PropertyKey("Tag", "name"): PropertyKey("Tag", "name"),
        ])
    }

    /// The identity lineage (a chain's target, and every inference between versions that hash
    /// alike): each stored property to itself, transient ones left out, a second entity of a name
    /// adding its own; restricted to the entities asked for.
    @Test func identityLineageWritesOutEveryStoredProperty() {
        let model = M(E("Note", [.a("title", .string), .a("cache", .string, transient: true)]),
                      E("Note", [.a("body", .string)]),
                      E("Tag", [.r("notes", to: "Note", many: true)]))
        let identity = ResolvedView(model).identityLineage()
        #expect(identity.entities == ["Note": "Note", "Tag": "Tag"])
        #expect(identity.properties.writingOut(identity.unchanged) == [
            PropertyKey("Note", "title"): PropertyKey("Note", "title"), PropertyKey("Note", "body"): PropertyKey("Note", "body"),
            PropertyKey("Tag", "notes"): PropertyKey("Tag", "notes"),
        ])
        let tags = ResolvedView(model).identityLineage { $0 == "Tag" }
        #expect(tags.entities == ["Tag": "Tag"])
        #expect(tags.properties.writingOut(tags.unchanged) == [PropertyKey("Tag", "notes"): PropertyKey("Tag", "notes")])
        // Versions that hash alike: every stored property stays, written out as before.
        let v1 = M(E("Note", [.a("title", .string), .a("body", .string)]), E("Tag", [.a("name", .string)]))
        let same = MappingInference.infer(from: v1, to: v1)
        #expect(!same.needsMigration)
        #expect(same.propertyLineage == [
            PropertyKey("Note", "title"): PropertyKey("Note", "title"), PropertyKey("Note", "body"): PropertyKey("Note", "body"),
            PropertyKey("Tag", "name"): PropertyKey("Tag", "name"),
        ])
    }
}
