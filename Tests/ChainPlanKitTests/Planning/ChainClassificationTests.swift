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

/// Findings that only exist at the level of a whole chain: a step without its mapping model
/// (CP201), a mapping model on a step that would infer anyway (CP206), and a direct jump
/// that fails or loses data although every chained step infers (CP207).
struct ChainClassificationTests {
    /// Classifies the array chain `versions` over a bundle of the given models (target: the last).
    /// `stages` are the spec's custom stages ("A -> B"), `configured` the rule configuration's.
    static func classify(_ versions: [(String, ObjectModel)], mappings: [StepKey: StepMappingModel] = [:], stages: [String] = [],
                         configured: [StepKey] = []) -> ChainClassification {
        let names = versions.map(\.0)
        let chain = "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        let spec = SpecText.read(stages.isEmpty ? chain : #"{"chain": \#(chain), "stages": [\#(stages.map { "\"\($0)\"" }.joined(separator: ", "))]}"#).spec!
        let bundle = ModelBundle(name: "Model", path: "Model.xcdatamodeld",
                                 versions: versions.map { ModelVersion(name: $0.0, path: "Model.xcdatamodeld/\($0.0).xcdatamodel/contents", model: $0.1) },
                                 currentVersion: names.last)
        let context = ChainContext(spec: spec, graph: ChainGraph.build(from: spec), bundle: bundle, isInferred: false)
        return ChainClassification(context: context, bundle: bundle, mappingModels: mappings, configuredStages: configured)
    }

    static let v1 = M(E("Event", [.a("title", .string)]))
    /// String → Integer 64: Core Data's builder refuses it (134190, §4.2), so the step needs a mapping model.
    static let numericTitle = M(E("Event", [.a("title", .integer64)]))
    static let optionalNotes = M(E("Event", [.a("title", .string), .a("notes", .string)]))
    static let mapping = StepMappingModel(path: "EventsToEvents2.xcmappingmodel", policies: ["EventToEventPolicy"])

    @Test func aStepThatCannotInferAndHasNoMappingModelFails() throws {
        let result = Self.classify([("V1", Self.v1), ("V2", Self.numericTitle)])
        let step = try #require(result.steps[StepKey(from: "V1", to: "V2")])
        #expect(step.migration == .heavyweight)
        #expect(step.inferable == false)
        #expect(step.mappingModel == nil)
        // One cause, one finding: the type change (CP204) names the cause and the missing
        // mapping model; no separate CP201 repeats it.
        let blocking = result.diagnostics.filter { $0.severity == .error }
        #expect(blocking.map(\.code) == [.attributeTypeChange])
        let attributeTypeChange = try #require(blocking.first)
        #expect(attributeTypeChange.message.contains("title"))
        #expect(attributeTypeChange.message.contains("no mapping model covers"))
        #expect(attributeTypeChange.versions == ["V1", "V2"])
        #expect(attributeTypeChange.location?.file == "Model.xcdatamodeld/V2.xcdatamodel/contents")
    }

    /// A uniqueness constraint added: a warning (the rebuilt table's unique index fails on
    /// duplicates), a note when the app runs the step as a custom stage (its code runs first).
    @Test(arguments: [([String](), false, Severity.warning), (["V1 -> V2"], false, Severity.note), ([], true, Severity.note)])
    func aUniquenessConstraintAddedInACustomStageIsANote(_ stages: [String], _ configured: Bool, _ severity: Severity) throws {
        let unique = M(E("Event", unique: [["title"]], [.a("title", .string)]))
        let result = Self.classify([("V1", Self.v1), ("V2", unique)], stages: stages, configured: configured ? [StepKey(from: "V1", to: "V2")] : [])
        let findings = result.diagnostics.filter { $0.code == .unverifiedChange }
        #expect(findings.map(\.severity) == [severity], "\(findings.map(\.message))")
        #expect(findings.first?.message.contains("custom stage") == (severity == .note))
    }

    @Test func theSameStepWithItsMappingModelIsHeavyweight() throws {
        let result = Self.classify([("V1", Self.v1), ("V2", Self.numericTitle)], mappings: [StepKey(from: "V1", to: "V2"): Self.mapping])
        let step = try #require(result.steps[StepKey(from: "V1", to: "V2")])
        #expect(step.migration == .heavyweight)
        #expect(step.inferable == false)
        #expect(step.mappingModel == Self.mapping)
        #expect(!result.diagnostics.contains { $0.severity == .error })
        #expect(!result.diagnostics.contains { $0.code == .mappingModelOnInferableStep })
    }

    @Test func aMappingModelOnAnInferableStepIsANote() throws {
        let result = Self.classify([("V1", Self.v1), ("V2", Self.optionalNotes)], mappings: [StepKey(from: "V1", to: "V2"): Self.mapping])
        let step = try #require(result.steps[StepKey(from: "V1", to: "V2")])
        #expect(step.migration == .heavyweight)
        #expect(step.inferable == true)
        let mappingModelOnInferableStep = try #require(result.diagnostics.first { $0.code == .mappingModelOnInferableStep })
        #expect(mappingModelOnInferableStep.severity == .note)
        #expect(mappingModelOnInferableStep.versions == ["V1", "V2"])
        // Without the mapping model the same step is lightweight and nothing is said.
        let plain = Self.classify([("V1", Self.v1), ("V2", Self.optionalNotes)])
        #expect(plain.steps[StepKey(from: "V1", to: "V2")]?.migration == .lightweight)
        #expect(plain.diagnostics.isEmpty)
    }

    /// `title` is dropped, then a `title` of another type is added: each step infers, but the
    /// direct jump sees a String → Integer 64 change, which is not inferable.
    @Test func aDirectJumpThatCannotInferIsReported() throws {
        let result = Self.classify([("V1", Self.v1), ("V2", M(E("Event"))), ("V3", M(E("Event", [.a("title", .integer64)])))])
        #expect(result.steps.values.allSatisfy { $0.migration == .lightweight })
        #expect(result.direct["V1"]?.inferable == false)
        let directJumpFails = result.diagnostics.filter { $0.code == .directJumpFails }
        #expect(directJumpFails.map(\.versions) == [["V1", "V3"]])
        #expect(directJumpFails.first?.message.contains("does not") == true)
        #expect(directJumpFails.first?.severity == .warning)
    }

    /// Core Data keys each side by its renaming identifier, else its name, and matches exact
    /// keys only (§4.1, §4.2): V2's `momento` is keyed `fecha`, so V3 naming the intermediate
    /// name `momento` matches nothing. The chain step V2 → V3 drops the values itself, so the
    /// direct jump loses nothing the chain keeps and CP207 stays quiet; V3 naming the original
    /// key keeps them on both.
    @Test func anIdentifierNamingTheIntermediateNameDropsTheDataOnTheChainToo() throws {
        let v1 = M(E("Note", [.a("fecha", .date)]))
        let v2 = M(E("Note", [.a("momento", .date, rid: "fecha")]))
        let namesIntermediate = M(E("Note", [.a("instante", .date, rid: "momento")]))
        let result = Self.classify([("V1", v1), ("V2", v2), ("V3", namesIntermediate)])
        #expect(result.steps[StepKey(from: "V1", to: "V2")]?.losesData == false)
        #expect(result.steps[StepKey(from: "V2", to: "V3")]?.losesData == true)
        #expect(result.direct["V1"]?.inferable == true)
        #expect(result.direct["V1"]?.losesData == true)
        #expect(result.direct["V1"]?.lostComparedToChain == [])
        #expect(!result.diagnostics.contains { $0.code == .directJumpFails })

        let keepsOriginal = M(E("Note", [.a("instante", .date, rid: "fecha")]))
        let fine = Self.classify([("V1", v1), ("V2", v2), ("V3", keepsOriginal)])
        #expect(fine.steps.values.allSatisfy { $0.losesData == false })
        #expect(fine.direct["V1"]?.losesData == false)
        #expect(fine.direct["V1"]?.lostComparedToChain == [])
        #expect(!fine.diagnostics.contains { $0.code == .directJumpFails })
    }

    /// The same for a whole entity, even one without properties: `Car` becomes `Auto` (keyed
    /// `Car`), then `Vehicle` whose renaming identifier names the intermediate `Auto`. Under
    /// exact key matching the step V2 → V3 already drops `Car`'s rows, so the direct jump drops
    /// nothing the chain keeps.
    @Test(arguments: [[], [P.a("plate", .string)]])
    func anEntityIdentifierNamingTheIntermediateNameDropsTheRowsOnTheChainToo(_ properties: [P]) throws {
        let v1 = M(E("Car", properties))
        let v2 = M(E("Auto", rid: "Car", properties))
        let namesIntermediate = M(E("Vehicle", rid: "Auto", properties))
        let result = Self.classify([("V1", v1), ("V2", v2), ("V3", namesIntermediate)])
        #expect(result.steps[StepKey(from: "V2", to: "V3")]?.losesData == true)
        #expect(result.direct["V1"]?.losesData == true)
        #expect(result.direct["V1"]?.lostComparedToChain == [])
        #expect(!result.diagnostics.contains { $0.code == .directJumpFails })

        let keepsOriginal = M(E("Vehicle", rid: "Car", properties))
        let fine = Self.classify([("V1", v1), ("V2", v2), ("V3", keepsOriginal)])
        #expect(fine.direct["V1"]?.lostComparedToChain == [])
        #expect(!fine.diagnostics.contains { $0.code == .directJumpFails })
    }

    /// CP207 compares the direct jump with a chain that works; when a chained step already
    /// fails, its blocking finding (here CP204) says so and CP207 stays quiet.
    @Test func noDirectJumpFindingWhenTheChainItselfFails() {
        let result = Self.classify([("V1", Self.v1), ("V2", Self.numericTitle), ("V3", M(E("Event", [.a("title", .integer64), .a("notes", .string)])))])
        #expect(result.diagnostics.contains { $0.code == .attributeTypeChange && $0.versions == ["V1", "V2"] })
        #expect(!result.diagnostics.contains { $0.code == .directJumpFails })
    }
}
