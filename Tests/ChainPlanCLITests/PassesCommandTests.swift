import Foundation
import GRDB
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// `chainplan passes` end to end (issue 23 part 2, reference §8): golden text, JSON and Swift for
/// the events example (a pass set of two mapping models) and a fixture without a mapping model,
/// the Swift driver type-checked against the Core Data stub, store-sized passes, and bad input.
struct PassesCommandTests {
    static let events = CLITests.root.appendingPathComponent("Chains/events-two-passes/chain.json")
    static let school = CLITests.root.appendingPathComponent("Tests/Fixtures/Passes/school/chain.json")

    /// A copy of the events example without its pass set (mapping models and the `.chainplan.yml`
    /// that lowers their CP120): the step needs a mapping model again (CP204). The caller removes it.
    static func eventsWithoutMappingModels() throws -> URL {
        let directory = try ConfigurationTests.copyOfExample("events-two-passes")
        for item in try FileManager.default.contentsOfDirectory(atPath: directory.path) where item.hasSuffix(".xcmappingmodel") || item == ".chainplan.yml" {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(item))
        }
        return directory
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-passes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs the command with `-o` in a fresh folder: the status, the output, and every file the
    /// folder holds afterwards.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, files: [String]) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let status = await ChainPlan.run(arguments: arguments + ["-o", out.path])
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.sorted() ?? []
        return (status, (try? String(contentsOf: out, encoding: .utf8)) ?? "", files)
    }

    struct GoldenCase: Sendable, CustomTestStringConvertible {
        var name: String
        var spec: URL
        var from: String
        var to: String
        var testDescription: String { name }
    }

    static let goldenCases = [
        GoldenCase(name: "events-two-passes", spec: events, from: "Events", to: "Events 2"),
        GoldenCase(name: "school", spec: school, from: "School", to: "School 2"),
    ]

    @Test(arguments: goldenCases)
    func outputsAreGoldenAndTheDriverTypeChecks(_ c: GoldenCase) async throws {
        let spec = DisplayPath.make(c.spec, relativeTo: DisplayPath.currentDirectory)
        for (format, suffix) in [("text", "txt"), ("json", "json"), ("swift", "swift")] {
            let (status, output, _) = try await Self.run(["passes", spec, c.from, c.to, "--format", format])
            // The events example's pass set forgets Organizer (CP701, an error).
            #expect(status == (c.name == "events-two-passes" ? 1 : 0))
            let golden = "Golden/passes/\(c.name).\(suffix)"
            #expect(try Golden.check(Data(output.utf8), against: golden), "\(golden) differs; see \(NSTemporaryDirectory())")
            if format == "swift" {
                let problems = try StageCodeTests.typecheck(output, name: "Passes_\(c.name.replacingOccurrences(of: "-", with: "_"))")
                #expect(problems == nil, "\(problems ?? "")")
            }
        }
    }

    /// The events example: the two mapping models' entity mappings, planned as one pass because
    /// no entity has a unique key to fetch by across passes.
    @Test func eventsExamplePlansFromItsTwoMappingModels() throws {
        let report = try ChainPlanner().passes(inputAt: Self.events, from: "Events", to: "Events 2", storeAt: nil, maxMemoryBytes: nil).get()
        #expect(report.mappingModels == ["StepOne", "StepTwo"])
        #expect(report.plan.passes.map(\.entityMappings) == [["AttendeeToAttendee", "EventToEvent", "EventToVenue"]])
        #expect(report.plan.crossPass.allSatisfy { $0.fix == .samePass })
        // StepOne forgets Organizer: its objects would not be migrated.
        #expect(report.plan.coverage.unmapped == ["Organizer"])
        #expect(report.diagnostics.map(\.code) == [.unmappedEntity])
        #expect(report.fullMappingModelName == "EventsToEvents2")
    }

    /// `validate` audits the example's two mapping models as a pass set (§8.3).
    @Test func validateAuditsTheExamplePassSet() throws {
        let report = ChainPlanner().plan(inputAt: Self.events, configuration: nil)
        let codes = report.diagnostics.map(\.code).filter { $0.rawValue.hasPrefix("CP7") }
        #expect(codes == [.unmappedEntity, .partialMappingModel, .partialMappingModel, .crossPassWithoutKey])
        let partial = try #require(report.diagnostics.last { $0.code == .partialMappingModel })
        #expect(partial.message.contains("'StepTwo'") && partial.message.contains("'Attendee', 'Organizer'"))
        #expect(!report.diagnostics.contains { $0.code == .attributeTypeChange })
    }

    /// Passes sized by a store's rows with the dry run's estimate and packed under the budget;
    /// the store is read from a copy and left unchanged.
    @Test func storeRowsSizeThePasses() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try #require(ChainPlanner().bundle(inputAt: Self.school))
        let model = try #require(bundle.version(named: "School")?.model)
        let store = directory.appendingPathComponent("school.sqlite")
        _ = try StoreFixtureWriter(rowsPerEntity: 200).write(model: model, versionName: "School", to: store.path)
        let before = try Data(contentsOf: store)
        let sized = try ChainPlanner().passes(inputAt: Self.school, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: nil).get()
        #expect(sized.plan.passes.allSatisfy { ($0.objects ?? 0) > 0 && ($0.memoryBytes ?? 0) > 0 })
        let single = try #require(sized.plan.singlePassMemoryBytes)
        #expect(single == sized.plan.passes.compactMap(\.memoryBytes).reduce(0, +))
        // A budget that holds everything: one pass. One that holds nothing: each group alone, and a finding per pass over it.
        let roomy = try ChainPlanner().passes(inputAt: Self.school, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: single).get()
        #expect(roomy.plan.passes.count == 1 && roomy.diagnostics.isEmpty)
        let tight = try ChainPlanner().passes(inputAt: Self.school, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: 1).get()
        #expect(tight.plan.passes.count == sized.plan.passes.count)
        #expect(tight.diagnostics.filter { $0.code == .heavyweightMemory }.count == tight.plan.passes.count)
        #expect(try Data(contentsOf: store) == before)
        // Through the command: exit 0, JSON with sizes.
        let (status, json, _) = try await Self.run(["passes", Self.school.path, "School", "School 2", "--store", store.path, "--max-memory-mb", "100", "--format", "json"])
        #expect(status == 0)
        #expect(json.contains("\"singlePassMemoryBytes\" : \(single)"))
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var title: String
        var arguments: [String]
        var code: DiagnosticCode
        var message: String
        var testDescription: String { title }
    }

    static let badInputs = [
        BadInput(title: "unknown version", arguments: ["Events", "Events 3"], code: .unknownVersion, message: "did you mean 'Events 2'?"),
        BadInput(title: "a step that is not heavyweight", arguments: ["Events 2", "Events 2"], code: .noPassesNeeded, message: "no passes needed"),
        BadInput(title: "unreadable store", arguments: ["Events", "Events 2", "--store", "/dev/null"], code: .unreadableStore, message: "store"),
    ]

    /// Bad input is a coded finding with its place, exit 2, and nothing is written (not even `-o`).
    @Test(arguments: badInputs)
    func badInputIsUnusable(_ c: BadInput) async throws {
        let (status, output, files) = try await Self.run(["passes", Self.events.path] + c.arguments)
        #expect(status == 2)
        #expect(output.isEmpty && files.isEmpty, "\(files)")
        let store = c.arguments.firstIndex(of: "--store").map { c.arguments[$0 + 1] }
        let result = ChainPlanner().passes(inputAt: Self.events, from: c.arguments[0], to: c.arguments[1], storeAt: store, maxMemoryBytes: nil)
        guard case .failure(let failure) = result else { Issue.record("planned"); return }
        #expect(failure.diagnostics.map(\.code) == [c.code])
        #expect(failure.diagnostics.allSatisfy { $0.location != nil && $0.message.contains(c.message) }, "\(failure.diagnostics.map(\.message))")
    }

    /// An inferred step: "inferred in SQL in place: no passes needed".
    @Test func inferredStepNeedsNoPasses() throws {
        let spec = CLITests.root.appendingPathComponent("Chains/notas/chain.json")
        let result = ChainPlanner().passes(inputAt: spec, from: "Notas", to: "Notas 2", storeAt: nil, maxMemoryBytes: nil)
        guard case .failure(let failure) = result else { Issue.record("planned"); return }
        #expect(failure.diagnostics.map(\.code) == [.noPassesNeeded])
        #expect(failure.diagnostics.first?.message.contains("inferred in SQL in place: no passes needed") == true)
    }
}
