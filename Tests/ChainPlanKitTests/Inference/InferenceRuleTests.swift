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

/// One row per rule of `shared/reference/core-data-internals.md` §4, built from models in code, in
/// both directions where there are two: the change, whether Core Data's builder infers it, and the
/// finding it raises.
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
        var validation: [ValidationCheck.Reason] = []
        var testDescription: String { name }
    }

    static let note = E("Note", [.a("title", .string)])

    static let rules: [Rule] = [
        // Attributes
        Rule(name: "add optional attribute", source: M(note), destination: M(E("Note", [.a("title", .string), .a("body", .string)])),
             inferable: true, kinds: [.attributeAdded], basis: .coreDataBuilder),
        Rule(name: "add non-optional attribute with default", source: M(note),
             destination: M(E("Note", [.a("title", .string), .a("pinned", .boolean, optional: false, default: "NO")])),
             inferable: true, kinds: [.attributeAdded]),
        Rule(name: "add non-optional attribute without default infers, flagged", source: M(note),
             destination: M(E("Note", [.a("title", .string), .a("pinned", .boolean, optional: false)])),
             inferable: true, kinds: [.attributeAdded], basis: .coreDataBuilder, validation: [.newMandatory]),
        Rule(name: "add transient attribute is no change", source: M(note),
             destination: M(E("Note", [.a("title", .string), .a("cache", .string, optional: false, transient: true)])),
             inferable: true, needsMigration: false, kinds: []),
        Rule(name: "remove attribute", source: M(E("Note", [.a("title", .string), .a("body", .string)])), destination: M(note),
             inferable: true, codes: [.dataRemoved], kinds: [.attributeRemoved]),
        Rule(name: "non-optional to optional", source: M(E("Note", [.a("title", .string, optional: false)])), destination: M(note),
             inferable: true, kinds: [.optionalityChanged]),
        Rule(name: "optional to non-optional with default", source: M(note),
             destination: M(E("Note", [.a("title", .string, optional: false, default: "")])),
             inferable: true, kinds: [.optionalityChanged, .defaultValueChanged]),
        Rule(name: "optional to non-optional without default infers, flagged", source: M(note),
             destination: M(E("Note", [.a("title", .string, optional: false)])),
             inferable: true, kinds: [.optionalityChanged], validation: [.optionalToMandatory]),
        Rule(name: "rename attribute with renaming identifier", source: M(E("Note", [.a("fecha", .date)])),
             destination: M(E("Note", [.a("momento", .date, rid: "fecha")])), inferable: true, kinds: [.attributeRenamed]),
        Rule(name: "rename attribute without renaming identifier: one warning", source: M(E("Note", [.a("fecha", .date)])),
             destination: M(E("Note", [.a("momento", .date)])), inferable: true, codes: [.renameWithoutIdentifier],
             kinds: [.likelyPropertyRename, .attributeRemoved, .attributeAdded]),
        Rule(name: "Integer 16 → Integer 64 converts", source: M(E("Item", [.a("quantity", .integer16)])),
             destination: M(E("Item", [.a("quantity", .integer64)])), inferable: true, kinds: [.attributeTypeChanged], basis: .coreDataBuilder),
        Rule(name: "Integer 64 → Decimal converts (WooCommerce 45 → 46)", source: M(E("Item", [.a("quantity", .integer64)])),
             destination: M(E("Item", [.a("quantity", .decimal)])), inferable: true, kinds: [.attributeTypeChanged]),
        Rule(name: "Integer 16 → Boolean converts", source: M(E("Item", [.a("flag", .integer16)])),
             destination: M(E("Item", [.a("flag", .boolean)])), inferable: true, kinds: [.attributeTypeChanged]),
        Rule(name: "String → Integer 64 is refused", source: M(E("Item", [.a("variant", .string)])),
             destination: M(E("Item", [.a("variant", .integer64)])), inferable: false, codes: [.attributeTypeChange],
             kinds: [.attributeTypeChanged], basis: .coreDataBuilder),
        Rule(name: "String → UUID is refused", source: M(E("Item", [.a("sectionID", .string)])),
             destination: M(E("Item", [.a("sectionID", .uuid)])), inferable: false, codes: [.attributeTypeChange], kinds: [.attributeTypeChanged]),
        // §4.2: a to-many is mandatory only with a minimum count above zero.
        Rule(name: "non-optional to-many without a minimum count is not mandatory", source: M(E("Skin"), E("Game")),
             destination: M(E("Skin", [.r("games", to: "Game", many: true, optional: false)]), E("Game")), inferable: true,
             kinds: [.relationshipAdded], validation: []),
        Rule(name: "new non-optional to-one is mandatory", source: M(E("Skin"), E("Game")),
             destination: M(E("Skin", [.r("game", to: "Game", optional: false)]), E("Game")), inferable: true,
             kinds: [.relationshipAdded], basis: .coreDataBuilder, validation: [.newMandatory]),
        Rule(name: "default value change alone needs no migration", source: M(E("Note", [.a("n", .integer16, default: "0")])),
             destination: M(E("Note", [.a("n", .integer16, default: "1")])), inferable: true, needsMigration: false,
             kinds: [.defaultValueChanged]),
        Rule(name: "attribute version hash modifier forces migration", source: M(note),
             destination: M(E("Note", [.a("title", .string, hash: "v2")])), inferable: true, kinds: [.hashModifierChanged]),
        Rule(name: "persistent to transient drops data", source: M(note),
             destination: M(E("Note", [.a("title", .string, transient: true)])), inferable: true, codes: [.dataRemoved],
             kinds: [.transientChanged]),
        // Entities
        Rule(name: "add entity", source: M(note), destination: M(note, E("Tag", [.a("name", .string)])), inferable: true,
             kinds: [.entityAdded]),
        Rule(name: "remove entity", source: M(note, E("Tag", [.a("name", .string)])), destination: M(note), inferable: true,
             codes: [.dataRemoved], kinds: [.entityRemoved]),
        Rule(name: "rename entity with renaming identifier", source: M(E("Car", [.a("color", .string)])),
             destination: M(E("Automobile", rid: "Car", [.a("color", .string)])), inferable: true, kinds: [.entityRenamed]),
        Rule(name: "rename entity without renaming identifier: one warning", source: M(E("Amount", [.a("value", .double), .a("name", .string)])),
             destination: M(E("Unit", [.a("value", .double), .a("name", .string)])), inferable: true, codes: [.renameWithoutIdentifier],
             kinds: [.likelyEntityRename, .entityRemoved, .entityAdded]),
        Rule(name: "entity version hash modifier", source: M(note), destination: M(E("Note", hash: "quick", [.a("title", .string)])),
             inferable: true, kinds: [.hashModifierChanged]),
        Rule(name: "new parent entity (unverified outcome)", source: M(E("Car", [.a("wheels", .integer16)])),
             destination: M(E("Vehicle", abstract: true, [.a("name", .string)]), E("Car", parent: "Vehicle", [.a("wheels", .integer16)])),
             inferable: true, codes: [.hierarchyChange], kinds: [.parentChanged, .attributeAdded, .entityAdded], basis: .unverified),
        Rule(name: "move property up the hierarchy", source: M(E("Vehicle"), E("Car", parent: "Vehicle", [.a("name", .string)])),
             destination: M(E("Vehicle", [.a("name", .string)]), E("Car", parent: "Vehicle")), inferable: true,
             kinds: [.attributeAdded]),
        Rule(name: "move entity out of a hierarchy", source: M(E("Vehicle"), E("Car", parent: "Vehicle", [.a("w", .integer16)])),
             destination: M(E("Vehicle"), E("Car", [.a("w", .integer16)])), inferable: true, codes: [.hierarchyChange], kinds: [.parentChanged]),
        Rule(name: "merge two hierarchies infers, one unverified finding", source: M(E("Car", [.a("w", .integer16)]), E("Boat", [.a("k", .integer16)])),
             destination: M(E("Vehicle"), E("Car", parent: "Vehicle", [.a("w", .integer16)]), E("Boat", parent: "Vehicle", [.a("k", .integer16)])),
             inferable: true, codes: [.hierarchyChange], kinds: [.parentChanged, .parentChanged, .entityAdded, .hierarchyMerged]),
        Rule(name: "a new uniqueness constraint is a hash input, and a warning", source: M(note),
             destination: M(E("Note", unique: [["title"]], [.a("title", .string)])),
             inferable: true, codes: [.unverifiedChange], kinds: [.uniquenessChanged]),
        Rule(name: "removing a uniqueness constraint migrates without a warning", source: M(E("Note", unique: [["title"]], [.a("title", .string)])),
             destination: M(note), inferable: true, kinds: [.uniquenessChanged]),
        Rule(name: "relationship to an unrelated surviving entity infers, unverified", source: M(E("A", [.r("b", to: "B")]), E("B"), E("C")),
             destination: M(E("A", [.r("b", to: "C")]), E("B"), E("C")), inferable: true, codes: [.unverifiedChange],
             kinds: [.destinationChanged], basis: .unverified),
        Rule(name: "relationship whose old destination is removed infers (links dropped with the entity)",
             source: M(E("A", [.r("b", to: "Old")]), E("Old", [.a("x", .string)])),
             destination: M(E("A", [.r("b", to: "New")]), E("New", [.a("y", .string)])), inferable: true, codes: [.dataRemoved]),
        // Relationships
        Rule(name: "add relationship", source: M(note, E("Tag")),
             destination: M(E("Note", [.a("title", .string), .r("tags", to: "Tag", many: true)]), E("Tag")), inferable: true,
             kinds: [.relationshipAdded]),
        Rule(name: "remove relationship", source: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note"), E("Tag")), inferable: true, kinds: [.relationshipRemoved]),
        Rule(name: "to-one to to-many", source: M(E("Note", [.r("tag", to: "Tag")]), E("Tag")),
             destination: M(E("Note", [.r("tag", to: "Tag", many: true)]), E("Tag")), inferable: true, kinds: [.cardinalityChanged]),
        Rule(name: "to-many to to-one is refused", source: M(E("Note", [.r("tag", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note", [.r("tag", to: "Tag")]), E("Tag")), inferable: false, codes: [.notInferable],
             kinds: [.cardinalityChanged], basis: .coreDataBuilder),
        Rule(name: "unordered to ordered", source: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note", [.r("tags", to: "Tag", many: true, ordered: true)]), E("Tag")), inferable: true,
             kinds: [.orderingChanged]),
        Rule(name: "ordered to unordered", source: M(E("Note", [.r("tags", to: "Tag", many: true, ordered: true)]), E("Tag")),
             destination: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")), inferable: true, kinds: [.orderingChanged]),
        Rule(name: "rename relationship with renaming identifier", source: M(E("Note", [.r("tags", to: "Tag", many: true)]), E("Tag")),
             destination: M(E("Note", [.r("labels", to: "Tag", many: true, rid: "tags")]), E("Tag")), inferable: true,
             kinds: [.relationshipRenamed]),
        Rule(name: "delete rule change is no change", source: M(E("Note", [.r("tag", to: "Tag")]), E("Tag")),
             destination: M(E("Note", [.r("tag", to: "Tag", rule: .cascade)]), E("Tag")), inferable: true, needsMigration: false, kinds: []),
        Rule(name: "attribute replaced by an entity", source: M(E("Nota", [.a("categoria", .string)])),
             destination: M(E("Nota", [.r("categoria", to: "Categoria")]), E("Categoria", [.a("nombre", .string)])),
             inferable: true, codes: [.propertyKindChange], kinds: [.propertyKindChanged, .entityAdded]),
        Rule(name: "attribute replaced by a differently named relationship to a new entity", source: M(E("Nota", [.a("categoria", .string)])),
             destination: M(E("Nota", [.r("grupo", to: "Categoria")]), E("Categoria", [.a("nombre", .string)])),
             inferable: true, codes: [.propertyKindChange], kinds: [.propertyKindChanged, .relationshipAdded, .entityAdded]),
        Rule(name: "identical models need no migration", source: M(note), destination: M(note), inferable: true, needsMigration: false),
        // Moving properties down a hierarchy
        Rule(name: "attribute moved down from an abstract parent keeps its values",
             source: M(E("P", abstract: true, [.a("x", .string)]), E("A", parent: "P"), E("B", parent: "P")),
             destination: M(E("P", abstract: true), E("A", parent: "P", [.a("x", .string)]), E("B", parent: "P", [.a("x", .string)])),
             inferable: true, kinds: [.attributeRemoved]),
        Rule(name: "attribute removed from an abstract parent that one child does not keep loses data",
             source: M(E("P", abstract: true, [.a("x", .string)]), E("A", parent: "P"), E("B", parent: "P")),
             destination: M(E("P", abstract: true), E("A", parent: "P", [.a("x", .string)]), E("B", parent: "P")),
             inferable: true, codes: [.dataRemoved]),
        Rule(name: "attribute moved down from a concrete parent loses the parent's own values",
             source: M(E("P", [.a("x", .string)]), E("A", parent: "P")),
             destination: M(E("P"), E("A", parent: "P", [.a("x", .string)])),
             inferable: true, codes: [.dataRemoved], kinds: [.attributeRemoved]),
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
        #expect(mapping.validation.map(\.reason) == rule.validation, "\(mapping.validation)")
    }

    /// Keys are matched exactly on both sides (§4.1): V3 keyed like V1's name works from V1 and from
    /// V2 (V2's key is its identifier, 'fecha'); V3 keyed by V2's *name* works from neither V1 nor
    /// V2, because V2 is keyed by its identifier: the identifier does not chain (Wire 2.47 → 2.48).
    @Test func multiStepRenames() {
        let v1 = M(E("Note", [.a("fecha", .date)]))
        let v2 = M(E("Note", [.a("momento", .date, rid: "fecha")]))
        let keepsOriginal = M(E("Note", [.a("instante", .date, rid: "fecha")]))
        let namesIntermediate = M(E("Note", [.a("instante", .date, rid: "momento")]))
        for (from, to, lossless) in [(v1, keepsOriginal, true), (v2, keepsOriginal, true), (v2, namesIntermediate, false), (v1, namesIntermediate, false)] {
            let mapping = MappingInference.infer(from: from, to: to)
            #expect(mapping.isInferable)
            #expect(mapping.changes.contains { $0.code == .renameWithoutIdentifier } == !lossless)
            #expect((mapping.propertyLineage[PropertyKey("Note", from.entities[0].attributes[0].name)] != nil) == lossless)
        }
    }

    /// The chain V1 → V2 → V3 keeps the values while the direct jump V1 → V3 drops them: the
    /// direct jump reports what it loses compared with the chain.
    @Test func directJumpLosesWhatTheIdentifiersDoNotChain() {
        let v1 = M(E("Note", [.a("fecha", .date)]))
        let v2 = M(E("Note", [.a("momento", .date, rid: "fecha")]))
        let v3 = M(E("Note", [.a("instante", .date, rid: "fecha")]))
        let chained = MappingInference.infer(from: v1, to: v2).propertyLineage[PropertyKey("Note", "fecha")]
        #expect(chained == PropertyKey("Note", "momento"))
        #expect(MappingInference.infer(from: v2, to: v3).propertyLineage[PropertyKey("Note", "momento")] == PropertyKey("Note", "instante"))
        #expect(MappingInference.infer(from: v1, to: v3).propertyLineage[PropertyKey("Note", "fecha")] == PropertyKey("Note", "instante"))
    }

    /// Every duplicate-key variant of §4.1/§4.2: refused on the source side and for entities on the
    /// destination side; two destination properties with one key both take the source's values.
    @Test(arguments: [
        ("two source entities", M(E("Note"), E("Memo", rid: "Note")), M(E("Note", [.a("x", .string)]), E("Memo")), false),
        ("two destination entities", M(E("Note")), M(E("Memo", rid: "Note"), E("Note", [.a("x", .string)])), false),
        ("two source properties", M(E("Note", [.a("momento", .date, rid: "fecha"), .a("fecha", .date)])),
         M(E("Note", [.a("momento", .date, rid: "fecha"), .a("fecha", .date), .a("x", .string)])), false),
        ("two inherited and own source properties", M(E("P", [.a("fecha", .date)]), E("C", parent: "P", [.a("momento", .date, rid: "fecha")])),
         M(E("P", [.a("fecha", .date), .a("x", .string)]), E("C", parent: "P", [.a("momento", .date, rid: "fecha")])), false),
        ("two destination properties", M(E("Note", [.a("fecha", .date)])),
         M(E("Note", [.a("momento", .date, rid: "fecha"), .a("fecha", .date)])), true),
    ] as [(String, ObjectModel, ObjectModel, Bool)])
    func duplicateKeys(_ name: String, _ source: ObjectModel, _ destination: ObjectModel, _ inferable: Bool) {
        let mapping = MappingInference.infer(from: source, to: destination)
        #expect(mapping.needsMigration)
        #expect(mapping.isInferable == inferable, "\(mapping.changes.map(\.detail))")
        #expect(mapping.changes.filter { $0.code == .duplicateRenamingIdentifier }.count == (inferable ? 0 : 1), "\(mapping.changes.map(\.detail))")
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
        #expect(mapping.changes.contains { $0.kind == .transformerChanged && $0.code == .unverifiedChange } == warns, "\(mapping.changes.map(\.detail))")
        let step = StepClassification(migration: .none, inferable: true, losesData: false, mappingModel: nil, changes: mapping.changes)
        let findings = StepClassifier.findings(for: step, from: "V1", to: "V2",
                                               stepLocation: SourceLocation(file: "chain.json"))
        #expect(findings.contains { $0.code == .unverifiedChange } == warns)
    }
}
