import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// `chainplan stage --write-models` on two-version projects whose step moves an attribute into a
/// new entity, under version names of every shape: the written intermediate sorts between its
/// neighbours in the model reader's history order, the bundle read back classifies each new step
/// as the plan said, and the printed next step, applied as printed (the spec's `chain` and
/// `stages`, JSON array, JSON tree or YAML; `.chainplan.yml` for a bundle given as input), plans
/// the decomposed chain clean. An existing version is CP514, exit 2, nothing written.
struct StageWriteModelsOrderTests {
    enum Input: String, Sendable { case jsonArray, jsonTree, yaml, bundle }

    struct Case: Sendable, CustomTestStringConvertible {
        var from: String
        var to: String
        var intermediate: String
        var input: Input
        var testDescription: String { "\(from) → \(to) (\(input.rawValue))" }
    }

    static let cases: [Case] = [
        Case(from: "Aircraft V2", to: "Aircraft V4", intermediate: "Aircraft V2 step 1", input: .jsonArray),
        // `Model step 1` and `Aircraft step 1` would sort after `Model 2` and `Aircraft V2`.
        Case(from: "Model", to: "Model 2", intermediate: "Model 1 step 1", input: .jsonArray),
        Case(from: "Model", to: "Model 2", intermediate: "Model 1 step 1", input: .jsonTree),
        Case(from: "Aircraft", to: "Aircraft V2", intermediate: "Aircraft 1 step 1", input: .yaml),
        Case(from: "V", to: "V2", intermediate: "V1 step 1", input: .jsonArray),
        Case(from: "SampleModel3", to: "SampleModel3_v2", intermediate: "SampleModel3 step 1", input: .bundle),
        Case(from: "Model", to: "Model 2", intermediate: "Model 1 step 1", input: .bundle),
    ]

    static func quoted(_ name: String) -> String { "\"\(name)\"" }

    static func project(_ c: Case) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-write-order-\(UUID().uuidString)")
        let bundle = directory.appendingPathComponent("App.xcdatamodeld")
        for (name, entities) in [(c.from, RuleExampleFixtures.aircraft), (c.to, RuleExampleFixtures.aircraftWithFlightData)] {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(RuleExampleFixtures.contents(entities).utf8).write(to: folder.appendingPathComponent("contents"))
        }
        try Data(RuleExampleFixtures.current(c.to).text.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let spec: String
        switch c.input {
        case .jsonArray, .bundle: spec = "{\"chain\": [\(quoted(c.from)), \(quoted(c.to))], \"model\": \"App.xcdatamodeld\"}"
        case .jsonTree: spec = "{\"chain\": {\(quoted(c.from)): \(quoted(c.to))}, \"model\": \"App.xcdatamodeld\"}"
        case .yaml: spec = "model: App.xcdatamodeld\nchain:\n  - \(quoted(c.from))\n  - \(quoted(c.to))\n"
        }
        try Data(spec.utf8).write(to: directory.appendingPathComponent(c.input == .yaml ? "chain.yaml" : "chain.json"))
        return directory
    }

    @Test(arguments: cases)
    func writtenVersionSortsBetweenItsNeighboursAndThePrintedStepPlansClean(_ c: Case) async throws {
        let directory = try Self.project(c)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("App.xcdatamodeld")
        let input = c.input == .bundle ? bundle : directory.appendingPathComponent(c.input == .yaml ? "chain.yaml" : "chain.json")
        // The plan before writing: its decomposition's steps and their classification.
        let before = try #require(ChainPlanner().stagePlan(inputAt: input, identities: { _ in nil }).plan)
        let decomposition = try #require(before.decompositions?.first)
        #expect(decomposition.intermediates.map(\.name) == [c.intermediate])

        let (status, out) = await StageCommandTests.run(["stage", input.path, "--write-models"], in: directory)
        #expect(status == 0, "\(out)")
        #expect(out.hasPrefix("wrote App.xcdatamodeld/\(c.intermediate).xcdatamodel/contents\n"), "\(out)")

        // Read back: the history order puts it between its neighbours, and each step classifies
        // as the plan said.
        let read = ModelBundleReader().read(bundleAt: bundle, displayPath: "App.xcdatamodeld")
        let reread = try #require(read.bundle)
        #expect(read.diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(reread.versionNames == [c.from, c.intermediate, c.to])
        let classifier = StepClassifier(bundle: reread)
        for step in decomposition.steps {
            #expect(classifier.classify(from: step.from, to: step.to).0.migration == step.migration, "\(step.from) → \(step.to)")
        }

        // The printed next step, applied as printed.
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let next = try #require(lines.firstIndex { $0.hasPrefix("next: ") })
        let values = lines[(next + 1)...].filter { $0.hasPrefix("  ") }
        switch c.input {
        case .bundle:
            #expect(lines[next].contains("'\(c.from)' → '\(c.intermediate)' → '\(c.to)'"), "\(lines[next])")
            try Data((values.map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n").utf8)
                .write(to: directory.appendingPathComponent(".chainplan.yml"))
        case .yaml:
            try Data((values.map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\nmodel: App.xcdatamodeld\n").utf8).write(to: input)
        case .jsonArray, .jsonTree:
            try Data(("{\n" + values.joined(separator: "\n") + ",\n  \"model\": \"App.xcdatamodeld\"\n}\n").utf8).write(to: input)
        }
        let (planned, json) = await StageCommandTests.run(["stage", input.path, "--format", "json"], in: directory)
        #expect(planned == 0, "\(json)")
        let after = try RuleCatalogue.jsonDecoder().decode(StagePlan.self, from: Data(json.utf8))
        #expect(after.decompositions == nil)
        #expect(after.findings.isEmpty, "\(after.findings.map(\.message))")
        #expect(after.starts.map(\.version) == [c.from, c.intermediate, c.to])
        #expect(after.starts.allSatisfy { $0.error == nil && $0.endsOn == c.to })
        let custom = try #require(after.stages.first { $0.kind == .custom })
        #expect(custom.versions == [c.from, c.intermediate])
        #expect(custom.work.first?.copy?.destinationEntity == "FlightData")

        // Again on the old spec: the version exists, CP514, exit 2, nothing overwritten. (The
        // bundle given as input lists the new version now: nothing is left to decompose.)
        guard c.input != .bundle else { return }
        let old = try Self.project(c)
        defer { try? FileManager.default.removeItem(at: old) }
        try FileManager.default.removeItem(at: input)
        try FileManager.default.copyItem(at: old.appendingPathComponent(input.lastPathComponent), to: input)
        let contents = bundle.appendingPathComponent("\(c.intermediate).xcdatamodel/contents")
        try Data("edited by hand".utf8).write(to: contents)
        let refused = await OutputCapture.run(["stage", input.path, "--write-models"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("[CP514]"), "\(refused.error)")
        #expect(try String(contentsOf: contents, encoding: .utf8) == "edited by hand")
    }
}
