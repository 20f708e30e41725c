import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// `chainplan stage --write-models` on a temporary copy of Chains/aircraft-staged without its
/// hand-made intermediate version: the written version is that file byte for byte, round-trips
/// through the model reader, classifies as the plan says, and is never overwritten.
struct StageWriteModelsTests {
    static let example = CLITests.root.appendingPathComponent("Chains/aircraft-staged/Aircraft.xcdatamodeld")

    /// The bundle without 'Aircraft V3', and a spec jumping V2 → V4 (the attribute moves into a new entity).
    static func fixture() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-write-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let bundle = directory.appendingPathComponent("Aircraft.xcdatamodeld")
        try FileManager.default.copyItem(at: example, to: bundle)
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("Aircraft V3.xcdatamodel"))
        try Data(#"{"chain": ["Aircraft", "Aircraft V2", "Aircraft V4"], "model": "Aircraft.xcdatamodeld"}"#.utf8)
            .write(to: directory.appendingPathComponent("chain.json"))
        return directory
    }

    @Test func writesTheIntermediateVersionAndRefusesToOverwriteIt() async throws {
        let directory = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        let (status, out) = await StageCommandTests.run(["stage", spec, "--write-models"], in: directory)
        #expect(status == 0, "\(out)")
        #expect(out.contains("wrote Aircraft.xcdatamodeld/Aircraft V2 step 1.xcdatamodel/contents"))
        #expect(out.contains(#""chain": ["Aircraft", "Aircraft V2", "Aircraft V2 step 1", "Aircraft V4"]"#))
        #expect(out.contains(#""stages": ["Aircraft V2 -> Aircraft V2 step 1"]"#))
        // Same dialect as the neighbours: it is the hand-made 'Aircraft V3' byte for byte.
        let bundle = directory.appendingPathComponent("Aircraft.xcdatamodeld")
        let written = try Data(contentsOf: bundle.appendingPathComponent("Aircraft V2 step 1.xcdatamodel/contents"))
        #expect(written == (try Data(contentsOf: Self.example.appendingPathComponent("Aircraft V3.xcdatamodel/contents"))))
        // Round trip: the reader reads it cleanly, and each new step classifies as the plan said.
        let read = ModelBundleReader().read(bundleAt: bundle, displayPath: "Aircraft.xcdatamodeld")
        let reread = try #require(read.bundle)
        #expect(read.diagnostics.filter { $0.severity == .error }.isEmpty)
        let classifier = StepClassifier(bundle: reread)
        #expect(classifier.classify(from: "Aircraft V2", to: "Aircraft V2 step 1").0.migration == .lightweight)
        #expect(classifier.classify(from: "Aircraft V2 step 1", to: "Aircraft V4").0.migration == .lightweight)
        // The printed chain plans clean: the custom stage copies, no suggestion is left.
        try Data(#"{"chain": ["Aircraft", "Aircraft V2", "Aircraft V2 step 1", "Aircraft V4"], "model": "Aircraft.xcdatamodeld", "stages": ["Aircraft V2 -> Aircraft V2 step 1"]}"#.utf8)
            .write(to: directory.appendingPathComponent("chain.json"))
        let plan = try #require(ChainPlanner().stagePlan(inputAt: URL(fileURLWithPath: spec), identities: { _ in nil }).plan)
        #expect(plan.decompositions == nil)
        #expect(plan.findings.isEmpty, "\(plan.findings.map(\.message))")
        #expect(plan.stages.first { $0.kind == .custom }?.work.first?.copy?.destinationEntity == "FlightData")
        // The old spec again: the version exists, nothing is overwritten, exit 2 with a finding.
        try Data(#"{"chain": ["Aircraft", "Aircraft V2", "Aircraft V4"], "model": "Aircraft.xcdatamodeld"}"#.utf8)
            .write(to: directory.appendingPathComponent("chain.json"))
        try Data("edited by hand".utf8).write(to: bundle.appendingPathComponent("Aircraft V2 step 1.xcdatamodel/contents"))
        let refused = await ChainPlan.run(arguments: ["stage", spec, "--write-models", "-o", directory.appendingPathComponent("out").path])
        #expect(refused == 2)
        #expect(try String(contentsOf: bundle.appendingPathComponent("Aircraft V2 step 1.xcdatamodel/contents"), encoding: .utf8) == "edited by hand")
    }

    /// The text edit and the in-memory edit agree: the written contents parse to the model the
    /// suggestion classified (attribute restored; attribute made optional).
    @Test func textEditsMatchModelEdits() throws {
        let base = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String"/>
                <attribute name="title" attributeType="String"/>
            </entity>
        </model>
        """#
        let source = base.replacingOccurrences(of: #"<attribute name="title" attributeType="String"/>"#,
                                               with: #"<attribute name="legacy" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>"#)
        let edits = [ModelEdit(kind: .restoreAttribute, entity: "Note", attribute: "legacy", sourceVersion: "V1", sourceEntity: "Note"),
                     ModelEdit(kind: .makeOptional, entity: "Note", attribute: "title")]
        let text = try #require(ModelContentsEditing.apply(edits, to: base, sources: { $0 == "V1" ? source : nil }))
        #expect(text.contains(#"<attribute name="legacy" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>"#))
        #expect(text.contains(#"<attribute name="title" optional="YES" attributeType="String"/>"#))
        let parse = { (text: String) in ModelContentsParser().parse(Data(text.utf8), file: "contents").model }
        var fromText = try #require(parse(text))
        let parsedBase = try #require(parse(base))
        var fromModel = try #require(ModelEditing.apply(edits, to: parsedBase, sources: { _ in parse(source) }))
        #expect(fromText.entities.first?.attributes.map(\.name) == ["body", "legacy", "title"])
        for index in fromText.entities.indices { fromText.entities[index].line = nil; fromText.entities[index].column = nil
            for a in fromText.entities[index].attributes.indices { fromText.entities[index].attributes[a].line = nil; fromText.entities[index].attributes[a].column = nil } }
        for index in fromModel.entities.indices { fromModel.entities[index].line = nil; fromModel.entities[index].column = nil
            for a in fromModel.entities[index].attributes.indices { fromModel.entities[index].attributes[a].line = nil; fromModel.entities[index].attributes[a].column = nil } }
        #expect(fromText.entities == fromModel.entities)
        // A name that is not there: no text, never a half-edited file.
        #expect(ModelContentsEditing.apply([ModelEdit(kind: .makeOptional, entity: "Note", attribute: "missing")], to: base, sources: { _ in nil }) == nil)
    }
}
