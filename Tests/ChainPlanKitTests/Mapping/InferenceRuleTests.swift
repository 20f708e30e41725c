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

/// One row per rule of `shared/reference/core-data.md` part 1, in both directions where
/// there are two: the change, whether Core Data infers it, and the finding it raises.
struct InferenceRuleTests {
    struct Rule: CustomTestStringConvertible, Sendable {
        var name: String
        var source: ObjectModel
        var destination: ObjectModel
        var inferable: Bool
        var needsMigration: Bool = true
        var codes: [DiagnosticCode] = []
        var kinds: [ModelChange.Kind] = []
        var basis: RuleBasis? = nil
        var testDescription: String { name }
    }

    static let note = E("Note", [.a("title", .string)])

    static let rules: [Rule] = [
        // Attributes
        Rule(name: "add optional attribute", source: M(note), destination: M(E("Note", [.a("title", .string), .a("body", .string)])),
             inferable: true, kinds: [.attributeAdded], basis: .documented),
        Rule(name: "add non-optional attribute with default", source: M(note),
             destination: M(E("Note", [.a("title", .string), .a("pinned", .boolean, optional: false, default: "NO")])),
             inferable: true, kinds: [.attributeAdded]),
        Rule(name: "add non-optional attribute without default", source: M(note),
             destination: M(E("Note", [.a("title", .string), .a("pinned", .boolean, optional: false)])),
             inferable: false, codes: [.cp203], kinds: [.attributeAdded], basis: .documented),
        Rule(name: "add transient attribute", source: M(note),
             destination: M(E("Note", [.a("title", .string), .a("cache", .string, optional: false, transient: true)])),
             inferable: true, kinds: [.attributeAdded]),
        Rule(name: "remove attribute", source: M(E("Note", [.a("title", .string), .a("body", .string)])), destination: M(note),
             inferable: true, codes: [.cp209], kinds: [.attributeRemoved]),
        Rule(name: "non-optional to optional", source: M(E("Note", [.a("title", .string, optional: false)])), destination: M(note),
             inferable: true, kinds: [.optionalityChanged]),
        Rule(name: "optional to non-optional with default", source: M(note),
             destination: M(E("Note", [.a("title", .string, optional: false, default: "")])),
             inferable: true, kinds: [.optionalityChanged, .defaultValueChanged]),
        Rule(name: "optional to non-optional without default", source: M(note),
             destination: M(E("Note", [.a("title", .string, optional: false)])),
             inferable: false, codes: [.cp203], kinds: [.optionalityChanged]),
        Rule(name: "rename attribute with renaming identifier", source: M(E("Note", [.a("fecha", .date)])),
             destination: M(E("Note", [.a("momento", .date, rid: "fecha")])), inferable: true, kinds: [.attributeRenamed]),
        Rule(name: "rename attribute without renaming identifier", source: M(E("Note", [.a("fecha", .date)])),
             destination: M(E("Note", [.a("momento", .date)])), inferable: true, codes: [.cp202, .cp209],
             kinds: [.likelyPropertyRename, .attributeRemoved, .attributeAdded]),
        Rule(name: "numeric widening Integer 16 → Integer 64", source: M(E("Item", [.a("quantity", .integer16)])),
             destination: M(E("Item", [.a("quantity", .integer64)])), inferable: true, kinds: [.attributeTypeChanged], basis: .observed),
        Rule(name: "Integer 64 → Double", source: M(E("Card", [.a("amount", .integer64)])),
             destination: M(E("Card", [.a("amount", .double)])), inferable: true, kinds: [.attributeTypeChanged], basis: .observed),
        Rule(name: "String → Integer 64 is conservative", source: M(E("Item", [.a("variant", .string)])),
             destination: M(E("Item", [.a("variant", .integer64)])), inferable: false, codes: [.cp204],
             kinds: [.attributeTypeChanged], basis: .conservative),
        Rule(name: "Integer 64 → Decimal is conservative", source: M(E("Item", [.a("quantity", .integer64)])),
             destination: M(E("Item", [.a("quantity", .decimal)])), inferable: false, codes: [.cp204], kinds: [.attributeTypeChanged]),
        Rule(name: "Boolean → Integer 32 is observed", source: M(E("Conversation", [.a("mutedStatus", .boolean)])),
             destination: M(E("Conversation", [.a("mutedStatus", .integer32)])), inferable: true, kinds: [.attributeTypeChanged],
             basis: .observed),
        Rule(name: "Integer 16 → Boolean is conservative", source: M(E("Item", [.a("flag", .integer16)])),
             destination: M(E("Item", [.a("flag", .boolean)])), inferable: false, codes: [.cp204], kinds: [.attributeTypeChanged]),
        Rule(name: "String → UUID is conservative", source: M(E("Item", [.a("sectionID", .string)])),
             destination: M(E("Item", [.a("sectionID", .uuid)])), inferable: false, codes: [.cp204], kinds: [.attributeTypeChanged]),
        Rule(name: "to-many without optional flag is not required", source: M(E("Skin"), E("Game")),
             destination: M(E("Skin", [.r("games", to: "Game", many: true, optional: false)]), E("Game")), inferable: true,
             kinds: [.relationshipAdded]),
        Rule(name: "new non-optional to-one is required", source: M(E("Skin"), E("Game")),
             destination: M(E("Skin", [.r("game", to: "Game", optional: false)]), E("Game")), inferable: true, codes: [.cp210],
             kinds: [.relationshipAdded], basis: .conservative),
        Rule(name: "default value change alone needs no migration", source: M(E("Note", [.a("n", .integer16, default: "0")])),
             destination: M(E("Note", [.a("n", .integer16, default: "1")])), inferable: true, needsMigration: false,
             kinds: [.defaultValueChanged]),
        Rule(name: "attribute version hash modifier forces migration", source: M(note),
             destination: M(E("Note", [.a("title", .string, hash: "v2")])), inferable: true, kinds: [.hashModifierChanged]),
        Rule(name: "persistent to transient drops data", source: M(note),
             destination: M(E("Note", [.a("title", .string, transient: true)])), inferable: true, codes: [.cp209],
             kinds: [.transientChanged]),
        // Entities
        Rule(name: "add entity", source: M(note), destination: M(note, E("Tag", [.a("name", .string)])), inferable: true,
             kinds: [.entityAdded]),
        Rule(name: "remove entity", source: M(note, E("Tag", [.a("name", .string)])), destination: M(note), inferable: true,
             codes: [.cp209], kinds: [.entityRemoved]),
        Rule(name: "rename entity with renaming identifier", source: M(E("Car", [.a("color", .string)])),
             destination: M(E("Automobile", rid: "Car", [.a("color", .string)])), inferable: true, kinds: [.entityRenamed]),
        Rule(name: "rename entity without renaming identifier", source: M(E("Amount", [.a("value", .double), .a("name", .string)])),
             destination: M(E("Unit", [.a("value", .double), .a("name", .string)])), inferable: true, codes: [.cp202, .cp209],
             kinds: [.likelyEntityRename, .entityRemoved, .entityAdded]),
        Rule(name: "entity version hash modifier", source: M(note), destination: M(E("Note", hash: "quick", [.a("title", .string)])),
             inferable: true, kinds: [.hashModifierChanged]),
        Rule(name: "new parent entity", source: M(E("Car", [.a("wheels", .integer16)])),
             destination: M(E("Vehicle", abstract: true, [.a("name", .string)]), E("Car", parent: "Vehicle", [.a("wheels", .integer16)])),
             inferable: true, kinds: [.parentChanged, .attributeAdded, .entityAdded]),
        Rule(name: "move property up the hierarchy", source: M(E("Vehicle"), E("Car", parent: "Vehicle", [.a("name", .string)])),
             destination: M(E("Vehicle", [.a("name", .string)]), E("Car", parent: "Vehicle")), inferable: true,
             kinds: [.attributeAdded]),
        Rule(name: "move entity out of a hierarchy", source: M(E("Vehicle"), E("Car", parent: "Vehicle", [.a("w", .integer16)])),
             destination: M(E("Vehicle"), E("Car", [.a("w", .integer16)])), inferable: true, kinds: [.parentChanged]),
        Rule(name: "merge two hierarchies", source: M(E("Car", [.a("w", .integer16)]), E("Boat", [.a("k", .integer16)])),
             destination: M(E("Vehicle"), E("Car", parent: "Vehicle", [.a("w", .integer16)]), E("Boat", parent: "Vehicle", [.a("k", .integer16)])),
             inferable: false, codes: [.cp205], kinds: [.parentChanged, .parentChanged, .entityAdded, .hierarchyMerged]),
        Rule(name: "uniqueness constraint alone needs no migration, but a new one is a warning", source: M(note),
             destination: M(E("Note", unique: [["title"]], [.a("title", .string)])),
             inferable: true, needsMigration: false, codes: [.cp210], kinds: [.uniquenessChanged]),
        Rule(name: "removing a uniqueness constraint is not a warning", source: M(E("Note", unique: [["title"]], [.a("title", .string)])),
             destination: M(note), inferable: true, needsMigration: false, kinds: [.uniquenessChanged]),
        Rule(name: "relationship to an unrelated surviving entity blocks inference", source: M(E("A", [.r("b", to: "B")]), E("B"), E("C")),
             destination: M(E("A", [.r("b", to: "C")]), E("B"), E("C")), inferable: false, codes: [.cp210],
             kinds: [.destinationChanged], basis: .conservative),
        Rule(name: "relationship to an ancestor of its old destination infers with a warning",
             source: M(E("A", [.r("b", to: "B")]), E("Base"), E("B", parent: "Base")),
             destination: M(E("A", [.r("b", to: "Base")]), E("Base"), E("B", parent: "Base")), inferable: true, codes: [.cp210],
             kinds: [.destinationChanged], basis: .conservative),
        Rule(name: "relationship whose old destination is removed infers (links dropped with the entity)",
             source: M(E("A", [.r("b", to: "Old")]), E("Old", [.a("x", .string)])),
             destination: M(E("A", [.r("b", to: "New")]), E("New", [.a("y", .string)])), inferable: true, codes: [.cp209]),
        // Relationships
        Rule(name: "add relationship", source: M(note, E("Tag")),
             destination: M(E("Note", [.a("title", .string), .r("tags", to: "Tag", many: true)]), E("Tag")), inferable: true,
             kinds: [.relationshipAdded]),
        Rule(name: "remove relationship", source: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note"), E("Tag")), inferable: true, kinds: [.relationshipRemoved]),
        Rule(name: "to-one to to-many", source: M(E("Note", [.r("tag", to: "Tag")]), E("Tag")),
             destination: M(E("Note", [.r("tag", to: "Tag", many: true)]), E("Tag")), inferable: true, kinds: [.cardinalityChanged]),
        Rule(name: "to-many to to-one is undocumented", source: M(E("Note", [.r("tag", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note", [.r("tag", to: "Tag")]), E("Tag")), inferable: true, codes: [.cp210],
             kinds: [.cardinalityChanged], basis: .conservative),
        Rule(name: "unordered to ordered", source: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note", [.r("tags", to: "Tag", many: true, ordered: true)]), E("Tag")), inferable: true,
             kinds: [.orderingChanged]),
        Rule(name: "ordered to unordered", source: M(E("Note", [.r("tags", to: "Tag", many: true, ordered: true)]), E("Tag")),
             destination: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")), inferable: true, kinds: [.orderingChanged]),
        Rule(name: "rename relationship with renaming identifier", source: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note", [.r("labels", to: "Tag", many: true, rid: "tags")]), E("Tag")), inferable: true,
             kinds: [.relationshipRenamed]),
        Rule(name: "delete rule change", source: M(E("Note", [.r("tag", to: "Tag")]), E("Tag")),
             destination: M(E("Note", [.r("tag", to: "Tag", rule: .cascade)]), E("Tag")), inferable: true, kinds: [.deleteRuleChanged]),
        Rule(name: "attribute replaced by an entity", source: M(E("Nota", [.a("categoria", .string)])),
             destination: M(E("Nota", [.r("categoria", to: "Categoria")]), E("Categoria", [.a("nombre", .string)])),
             inferable: true, codes: [.cp211], kinds: [.propertyKindChanged, .relationshipAdded, .entityAdded]),
        Rule(name: "attribute replaced by a differently named relationship to a new entity", source: M(E("Nota", [.a("categoria", .string)])),
             destination: M(E("Nota", [.r("grupo", to: "Categoria")]), E("Categoria", [.a("nombre", .string)])),
             inferable: true, codes: [.cp211], kinds: [.propertyKindChanged, .attributeRemoved, .relationshipAdded, .entityAdded]),
        Rule(name: "identical models need no migration", source: M(note), destination: M(note), inferable: true, needsMigration: false),
        // Moving properties down a hierarchy
        Rule(name: "attribute moved down from an abstract parent keeps its values",
             source: M(E("P", abstract: true, [.a("x", .string)]), E("A", parent: "P"), E("B", parent: "P")),
             destination: M(E("P", abstract: true), E("A", parent: "P", [.a("x", .string)]), E("B", parent: "P", [.a("x", .string)])),
             inferable: true, kinds: [.attributeRemoved]),
        Rule(name: "attribute removed from an abstract parent that one child does not keep loses data",
             source: M(E("P", abstract: true, [.a("x", .string)]), E("A", parent: "P"), E("B", parent: "P")),
             destination: M(E("P", abstract: true), E("A", parent: "P", [.a("x", .string)]), E("B", parent: "P")),
             inferable: true, codes: [.cp209]),
        Rule(name: "attribute moved down from a concrete parent loses the parent's own values",
             source: M(E("P", [.a("x", .string)]), E("A", parent: "P")),
             destination: M(E("P"), E("A", parent: "P", [.a("x", .string)])),
             inferable: true, codes: [.cp209], kinds: [.attributeRemoved]),
    ]

    @Test(arguments: rules)
    func rule(_ rule: Rule) {
        let mapping = MappingInference.infer(from: rule.source, to: rule.destination)
        #expect(mapping.isInferable == rule.inferable, "\(mapping.changes.map(\.detail))")
        #expect(mapping.needsMigration == rule.needsMigration, "\(mapping.changes.map(\.detail))")
        #expect(Set(mapping.changes.compactMap(\.code)) == Set(rule.codes), "\(mapping.changes.map(\.detail))")
        if !rule.kinds.isEmpty {
            #expect(mapping.changes.map(\.kind).sorted { $0.rawValue < $1.rawValue } == rule.kinds.sorted { $0.rawValue < $1.rawValue },
                    "\(mapping.changes.map(\.detail))")
        }
        if let basis = rule.basis {
            #expect(mapping.changes.first?.basis == basis)
        }
    }

    /// Renaming identifiers are canonical: V3 keeping the ORIGINAL name works from V1 and V2;
    /// V3 naming the INTERMEDIATE name works from V2 but is a drop + add from V1.
    @Test func multiStepRenames() {
        let v1 = M(E("Note", [.a("fecha", .date)]))
        let v2 = M(E("Note", [.a("momento", .date, rid: "fecha")]))
        let keepsOriginal = M(E("Note", [.a("instante", .date, rid: "fecha")]))
        let namesIntermediate = M(E("Note", [.a("instante", .date, rid: "momento")]))
        for (from, to, lossless) in [(v1, keepsOriginal, true), (v2, keepsOriginal, true), (v2, namesIntermediate, true), (v1, namesIntermediate, false)] {
            let mapping = MappingInference.infer(from: from, to: to)
            #expect(mapping.isInferable)
            #expect(mapping.changes.contains { $0.code == .cp202 } == !lossless)
            #expect((mapping.propertyLineage[PropertyKey("Note", from.entities[0].attributes[0].name)] != nil) == lossless)
        }
    }

    @Test func entityMappingsAreNamedLikeXcode() {
        let mapping = MappingInference.infer(from: M(E("Amount", [.a("v", .double)]), Self.note),
                                             to: M(E("Unit", rid: "Amount", [.a("v", .double)]), Self.note))
        #expect(mapping.entityMappings.map(\.name) == ["NoteToNote", "AmountToUnit"])
        #expect(mapping.entityMappings.first { $0.name == "AmountToUnit" }?.propertyMappings.first?.expression == "$source.v")
        #expect(mapping.entityMappings.first { $0.name == "NoteToNote" }?.kind == .copy)
    }

    /// Class names and value transformers are not version-hash inputs: a transformable attribute
    /// whose transformer or class changes needs no migration, and nothing converts the stored
    /// bytes, so it is a warning (CP210); an unchanged one says nothing.
    @Test(arguments: [("NSSecureUnarchiveFromData", "ColorTransformer", true), ("ColorTransformer", "ColorTransformer", false)])
    func transformerChanges(_ old: String, _ new: String, _ warns: Bool) {
        func model(_ transformer: String) -> ObjectModel {
            var entity = E("Theme")
            entity.attributes = [Attribute(name: "color", type: .transformable, valueTransformerName: transformer, customClassName: "UIColor")]
            return M(entity)
        }
        let mapping = MappingInference.infer(from: model(old), to: model(new))
        #expect(!mapping.needsMigration)
        #expect(mapping.isInferable)
        #expect(mapping.changes.contains { $0.kind == .transformerChanged && $0.code == .cp210 } == warns, "\(mapping.changes.map(\.detail))")
        let step = StepClassification(migration: .none, inferable: true, losesData: false, mappingModel: nil, changes: mapping.changes)
        let findings = StepClassifier.findings(for: step, from: "V1", to: "V2",
                                               stepLocation: SourceLocation(file: "chain.json"))
        #expect(findings.contains { $0.code == .cp210 } == warns)
    }
}
