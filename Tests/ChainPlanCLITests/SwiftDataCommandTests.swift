import ChainPlanTestSupport
import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanPlanning

/// SwiftData sources wherever a bundle is accepted: given directly, or named by a spec's
/// `swiftdata` (with `plan`), in process.
@Suite("Swift sources as planning input")
struct SwiftDataCommandTests {
    static let trips = Golden.fixtures.appendingPathComponent("SwiftData/Trips")

    /// A folder holding a copy of the Trips sources in `Models/`, and `spec` as `chain.json`.
    static func project(spec: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftspec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: trips, to: folder.appendingPathComponent("Models"))
        try Data(spec.utf8).write(to: folder.appendingPathComponent("chain.json"))
        return folder
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func validateReadsTheFolderAndItsPlan() async throws {
        let run = await OutputCapture.run(["validate", Self.trips.path, "--format", "json"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let report = try Self.json(run.output)
        #expect(report["versions"] as? [String] == ["TripsSchemaV1", "TripsSchemaV2"])
        #expect(report["target"] as? String == "TripsSchemaV2")
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.count == 1)
        #expect(steps.first?["migration"] as? String == "lightweight")
        #expect(steps.first?["inferable"] as? Bool == true)
    }

    @Test func aSpecNamesTheSourcesAndThePlan() async throws {
        let folder = try Self.project(spec: #"{"swiftdata": "Models", "plan": "TripsMigrationPlan"}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["paths", folder.appendingPathComponent("chain.json").path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("TripsSchemaV1  TripsSchemaV1 → TripsSchemaV2"), "\(run.output)")
    }

    /// CP100 makes the spec unusable (exit 2); CP605 is an error on a usable input (exit 1).
    @Test(arguments: [
        (#"{"swiftdata": "Models", "model": "Model.xcdatamodeld"}"#, "CP100", Int32(2)),
        (#"{"chain": ["A"], "plan": "TripsMigrationPlan"}"#, "CP100", 2),
        (#"{"swiftdata": "Models", "plan": "NoSuchPlan"}"#, "CP605", 1),
    ])
    func aSpecThatCannotBeUsed(_ spec: String, _ code: String, _ status: Int32) async throws {
        let folder = try Self.project(spec: spec)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await OutputCapture.run(["validate", folder.appendingPathComponent("chain.json").path])
        #expect(run.status == status)
        #expect(run.output.contains(code) || run.error.contains(code), "\(run.output)\(run.error)")
    }

    /// Sources outside the spec's folder are read only with --allow-outside, as a bundle is.
    @Test func sourcesOutsideTheSpecsFolder() async throws {
        let folder = try Self.project(spec: "{}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inner = folder.appendingPathComponent("Specs")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try Data(#"{"swiftdata": "../Models"}"#.utf8).write(to: inner.appendingPathComponent("chain.json"))
        let spec = inner.appendingPathComponent("chain.json").path
        let refused = await OutputCapture.run(["validate", spec])
        #expect(refused.status == 2)
        #expect(refused.output.contains("CP100") && refused.output.contains("--allow-outside"), "\(refused.output)")
        let allowed = await OutputCapture.run(["validate", spec, "--allow-outside"])
        #expect(allowed.status == 0, "\(allowed.output)")
    }

    @Test func aFolderWithoutSchemasIsUnusable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftnone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("let x = 1\n".utf8).write(to: folder.appendingPathComponent("main.swift"))
        let run = await OutputCapture.run(["validate", folder.path])
        #expect(run.status == 2)
        #expect(run.output.contains("CP604") || run.error.contains("CP604"), "\(run.output)\(run.error)")
    }

    /// `stage` audits the app's own plan, its stages translated into Core Data's: its findings
    /// and which stages run from each start.
    @Test func stageAuditsTheAppsPlan() async throws {
        let run = await OutputCapture.run(["stage", Self.trips.path, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        let audit = try Self.json(run.output)
        let starts = try #require(audit["starts"] as? [[String: Any]], "\(run.output)")
        #expect(starts.compactMap { $0["version"] as? String } == ["TripsSchemaV1", "TripsSchemaV2"], "\(starts)")
        let text = await OutputCapture.run(["stage", Self.trips.path])
        #expect(text.output.hasPrefix("Audit of plan 'TripsMigrationPlan'"), "\(text.output)")
        #expect(text.output.contains("willMigrate of stage 1 at 'TripsSchemaV1'"), "\(text.output)")
    }

    /// Two schemas with one checksum in one stage (the demo's 2.1): the container fails before
    /// any stage runs, so the audit gives CP610 and simulates no start.
    @Test func stageOfAPlanWhoseContainerFails() async throws {
        let demo = CLITests.root.appendingPathComponent("Chains/swiftdata-trips")
        let run = await OutputCapture.run(["stage", demo.path, "--format", "json"])
        #expect(run.status == 1, "\(run.error)")
        let audit = try Self.json(run.output)
        #expect(audit["starts"] == nil, "\(run.output)")
        #expect((audit["findings"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == "CP610" }, "\(run.output)")
        let text = await OutputCapture.run(["stage", demo.path])
        #expect(text.output.contains("No start is simulated"), "\(text.output)")
        // Core Data stage code is no answer for a SwiftData plan: a usage error, never the text.
        for refused in [["--format", "swift"], ["--format", "corestore"], ["--momd", "App.momd"]] {
            let run = await OutputCapture.run(["stage", demo.path] + refused)
            #expect(run.status == 2, "\(refused): \(run.output)")
        }
    }

    /// `inspect` reads the sources as a bundle: one version per schema.
    @Test func inspectListsTheSchemas() async throws {
        let run = await OutputCapture.run(["inspect", Self.trips.path, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        let report = try Self.json(run.output)
        let versions = try #require(report["versions"] as? [[String: Any]])
        #expect(versions.compactMap { $0["name"] as? String } == ["TripsSchemaV1", "TripsSchemaV2"])
    }

    /// A `.swift` symbolic link inside the folder is refused, not followed: it could reach any
    /// file outside the folder (the bundle reader refuses links the same way).
    @Test func symbolicLinksAreNotFollowed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftlink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.trips.appendingPathComponent("Schemas.swift"), to: folder.appendingPathComponent("Schemas.swift"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("Models.swift"), withDestinationURL: Self.trips.appendingPathComponent("Models.swift"))
        let run = await OutputCapture.run(["validate", folder.path])
        #expect(run.status == 2)
        #expect((run.output + run.error).contains("symbolic link"), "\(run.output)\(run.error)")
    }

    /// A spec's `swiftdata` naming a FIFO, a link loop, nothing, or no string: exit 2 with the
    /// code that says why, never a hang (a FIFO would block a read).
    @Test(arguments: [
        (#"{"swiftdata": "pipe.swift"}"#, "CP601"),
        (#"{"swiftdata": "loop"}"#, "CP100"),
        (#"{"swiftdata": "nothing"}"#, "CP601"),
        (#"{"swiftdata": ["Models"]}"#, "CP100"),
        (#"{"swiftdata": "."}"#, "CP601"),
    ])
    func hostileSourcePaths(_ spec: String, _ code: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swifthostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("pipe.swift").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: "loop")
        try Data(spec.utf8).write(to: folder.appendingPathComponent("chain.json"))
        let run = await OutputCapture.run(["validate", folder.appendingPathComponent("chain.json").path])
        #expect(run.status == 2)
        #expect((run.output + run.error).contains(code), "\(run.output)\(run.error)")
    }

    /// `--define` and `--swift-os` state the build `#if` is decided for: the property under
    /// `#if STAGING` is in the model, and so in its hash, only when STAGING is defined.
    @Test func theStatedConfigurationDecidesIf() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "import SwiftData\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Thing.self] }\n    @Model final class Thing {\n        var name = \"\"\n        #if STAGING && os(macOS)\n        var note: String?\n        #endif\n    }\n}\n"
        try Data(source.utf8).write(to: folder.appendingPathComponent("Models.swift"))
        func checksum(_ extra: [String]) async throws -> String? {
            let run = await OutputCapture.run(["hash", folder.path, "--format", "json"] + extra)
            #expect(run.status == 0, "\(run.error)")
            return ((try Self.json(run.output))["versions"] as? [[String: Any]])?.first?["checksum"] as? String
        }
        let plain = try await checksum([])
        let staging = try await checksum(["--define", "STAGING"])
        let stagingMac = try await checksum(["--define", "STAGING", "--swift-os", "macOS"])
        #expect(plain != nil && plain == staging)
        #expect(stagingMac != nil && stagingMac != plain)
        let validated = await OutputCapture.run(["validate", folder.path, "--define", "STAGING", "--swift-os", "macOS"])
        #expect(validated.status == 0, "\(validated.output)")
    }

    /// `--module-name` states the module the sources build: `MyApp.Thing.self` is then read, on
    /// `hash` and on the planning commands; unstated, the schema has no hashes and CP602 says how
    /// to state it.
    @Test func theStatedModuleNameReadsQualifiedNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-module-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "import SwiftData\n@Model final class Thing { var name = \"\" }\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [MyApp.Thing.self] }\n}\n"
        try Data(source.utf8).write(to: folder.appendingPathComponent("Models.swift"))
        let stated = await OutputCapture.run(["hash", folder.path, "--format", "json", "--module-name", "MyApp"])
        #expect(stated.status == 0, "\(stated.error)")
        #expect(((try Self.json(stated.output))["versions"] as? [[String: Any]])?.first?["checksum"] is String)
        let unstated = await OutputCapture.run(["validate", folder.path])
        #expect(unstated.output.contains("CP602") && unstated.output.contains("--module-name MyApp"), "\(unstated.output)")
        let validated = await OutputCapture.run(["validate", folder.path, "--module-name", "MyApp"])
        #expect(!validated.output.contains("CP602"), "\(validated.output)")
    }
}

/// `stage` on a SwiftData plan whose `stages` is empty: what SwiftData does today (every store
/// straight to the last schema) and the stages the plan needs, which, pasted into the plan, audit
/// as the stage plan chainplan made.
struct SwiftDataStagelessPlanTests {
    /// A plan over schemas V1, V2, … whose `Trip` has the members given for each, with `stages`
    /// (Swift lines) as the plan's stages property.
    static func source(_ trips: [String], stages: String = "static var stages: [MigrationStage] { [] }") -> String {
        var text = "import SwiftData\n"
        for (index, members) in trips.enumerated() {
            text += """
                enum V\(index + 1): VersionedSchema {
                    static let versionIdentifier = Schema.Version(\(index + 1), 0, 0)
                    static var models: [any PersistentModel.Type] { [Trip.self] }
                    @Model final class Trip { \(members) }
                }

                """
        }
        let schemas = trips.indices.map { "V\($0 + 1).self" }.joined(separator: ", ")
        return text + "enum Plan: SchemaMigrationPlan {\n    static var schemas: [any VersionedSchema.Type] { [\(schemas)] }\n"
            + stages.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n}\n"
    }

    /// V2 renames `cost` to `price` with `originalName`; V3 drops the identifier, so the direct
    /// jump (and V2 → V3) drops the values stepping would keep: a custom stage with data work.
    static let renamed = ["var name: String = \"\"; var cost: String = \"\"",
                          "var name: String = \"\"; @Attribute(originalName: \"cost\") var price: String = \"\"",
                          "var name: String = \"\"; var price: String = \"\"; var note: String?"]

    static func folder(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-stageless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("Models.swift"))
        return folder
    }

    @Test func stageShowsTodayAndTheStagesNeeded() async throws {
        let folder = try Self.folder(Self.source(Self.renamed))
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = await OutputCapture.run(["stage", folder.path])
        #expect(text.status == 0, "\(text.output)\(text.error)")
        for expected in ["has no stages", "'V1': straight to 'V3': inferred", "deletes data: attribute 'Trip.cost' is removed", "Stages the plan needs",
                         "1. .lightweight(fromVersion: V1.self, toVersion: V2.self)",
                         "2. .custom(fromVersion: V2.self, toVersion: V3.self, willMigrate: { … }, didMigrate: { … })", "unverified:"] {
            #expect(text.output.contains(expected), "\(expected): \(text.output)")
        }
        let json = try SwiftDataCommandTests.json(await OutputCapture.run(["stage", folder.path, "--format", "json"]).output)
        let stages = try #require(json["stages"] as? [[String: Any]])
        #expect(stages.map { "\($0["kind"] ?? "") \($0["fromVersion"] ?? "")→\($0["toVersion"] ?? "")" } == ["lightweight V1→V2", "custom V2→V3"])
        #expect((json["starts"] as? [[String: Any]])?.count == 3)

        // Pasted into the plan, the Swift audits clean, each start running the planned jumps.
        let swift = await OutputCapture.run(["stage", folder.path, "--format", "swift"])
        #expect(swift.status == 0, "\(swift.error)")
        let pasted = try Self.folder(Self.source(Self.renamed, stages: swift.output))
        defer { try? FileManager.default.removeItem(at: pasted) }
        let audit = await OutputCapture.run(["stage", pasted.path, "--format", "json"])
        #expect(audit.status == 0, "\(audit.output)")
        let audited = try SwiftDataCommandTests.json(audit.output)
        #expect(!(audited["findings"] as? [[String: Any]] ?? []).contains { $0["severity"] as? String == "error" }, "\(audit.output)")
        let jumps = { (starts: Any?) in (starts as? [[String: Any]] ?? []).map { ($0["jumps"] as? [[String: Any]] ?? []).map { "\($0["from"] ?? "")→\($0["to"] ?? "") \($0["migration"] ?? "")" } } }
        #expect(jumps(audited["starts"]) == jumps(json["starts"]), "\(audit.output)")
    }

    /// A plan whose direct jumps all infer needs no stage; `--format swift` then has nothing to
    /// write (exit 2), and Core Data's formats are refused.
    @Test func aPlanThatNeedsNoStage() async throws {
        let folder = try Self.folder(Self.source([Self.renamed[0], Self.renamed[0], Self.renamed[0] + "; var note: String?"]))
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = await OutputCapture.run(["stage", folder.path])
        #expect(text.status == 0, "\(text.output)\(text.error)")
        #expect(text.output.contains("No stage needed"), "\(text.output)")
        for refused in [["--format", "swift"], ["--format", "corestore"], ["--format", "markdown"], ["--momd", "App.momd"]] {
            let run = await OutputCapture.run(["stage", folder.path] + refused)
            #expect(run.status == 2, "\(refused): \(run.output)")
        }
    }

    /// A schema that cannot be read: which stages are needed is not known, and none is suggested;
    /// a plan of one schema has nothing to migrate.
    @Test func unreadableAndSingleSchemas() async throws {
        let folder = try Self.folder(Self.source([Self.renamed[0] + "; var spot: CLLocationCoordinate2D?", Self.renamed[1], Self.renamed[2]]))
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = await OutputCapture.run(["stage", folder.path])
        #expect(text.output.contains("Which stages the plan needs is not known"), "\(text.output)")
        #expect(!text.output.contains(".custom("), "\(text.output)")
        let json = try SwiftDataCommandTests.json(await OutputCapture.run(["stage", folder.path, "--format", "json"]).output)
        #expect(json["unreadable"] as? Bool == true)
        #expect((json["stages"] as? [Any])?.isEmpty == true && (json["findings"] as? [Any])?.isEmpty == true)
        #expect(await OutputCapture.run(["stage", folder.path, "--format", "swift"]).status == 2)

        let single = try Self.folder(Self.source(["var name: String = \"\""]))
        defer { try? FileManager.default.removeItem(at: single) }
        let one = await OutputCapture.run(["stage", single.path])
        #expect(one.status == 0 && one.output.contains("There is no older schema"), "\(one.output)")
    }

    /// A stage's jump that infers but could fail validation says so in each start's run: the
    /// audit shows the 134110 risk that `validate` reports as CP203.
    @Test func aRunNamesAJumpThatCouldFailValidation() async throws {
        let folder = try Self.folder(Self.source(["var name: String = \"\"", "var name: String = \"\"; var rating: Int"],
                                                 stages: "static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = await OutputCapture.run(["stage", folder.path])
        #expect(text.output.contains("jump 'V1' → 'V2' (stage 1): lightweight, could fail validation: fails (134110) on stores where any Trip exists"),
                "\(text.output)")
        let json = try SwiftDataCommandTests.json(await OutputCapture.run(["stage", folder.path, "--format", "json"]).output)
        let jump = try #require(((json["starts"] as? [[String: Any]])?.first?["jumps"] as? [[String: Any]])?.first)
        #expect((jump["validation"] as? [[String: Any]])?.first?["property"] as? String == "rating", "\(jump)")
    }

    /// Core Data stages as SwiftData writes them, each translating back into the Core Data stage.
    @Test(arguments: [
        ([("custom", ["A", "B"]), ("lightweight", ["C"])], "C", ["custom A→B", "lightweight B→C"]),
        ([("lightweight", ["A", "B"]), ("custom", ["C", "D"]), ("lightweight", ["E"])], "E", ["lightweight A→C", "custom C→D", "lightweight D→E"]),
        ([("lightweight", ["A"]), ("custom", ["B", "C"])], "C", ["lightweight A→B", "custom B→C"]),
        ([("lightweight", ["A", "B", "C"])], "C", []),
    ])
    func translation(_ stages: [(String, [String])], _ app: String, _ expected: [String]) {
        let coreData = stages.map { MigrationStage(kind: MigrationStage.Kind(rawValue: $0.0)!, versions: $0.1, checksums: [], reason: "", label: "") }
        let swiftData = SwiftDataStageSuggestion.stages(translating: coreData, appSchema: app)
        #expect(swiftData.map { "\($0.kind) \($0.fromVersion)→\($0.toVersion)" } == expected)
    }
}
