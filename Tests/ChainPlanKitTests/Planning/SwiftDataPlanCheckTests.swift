import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanKit
@testable import ChainPlanPlanning

/// A `SchemaMigrationPlan` planned from Swift sources: its stages found by version, translated
/// into Core Data's and run through the stage audit (reference swiftdata §7.1). Each case is a
/// plan over schemas V1…Vn of one `Note` class and the codes the whole plan reports.
@Suite("SwiftData plans")
struct SwiftDataPlanCheckTests {
    static let title = "var title: String = \"\""
    static let body = title + "\nvar body: String?"
    static let pinned = body + "\nvar pinned: Bool = false"
    static let three = [("V1", "1.0.0", title), ("V2", "2.0.0", body), ("V3", "3.0.0", pinned)]

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var schemas: [(name: String, version: String, note: String)]
        var stages: String
        /// Replaces the plan's `schemas` list, when set.
        var listed: String? = nil
        var codes: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "consecutive lightweight stages: one jump, the shared endpoints noted as unverified", schemas: three,
             stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self), .lightweight(fromVersion: V2.self, toVersion: V3.self)",
             codes: ["CP611"]),
        Case(name: "one lightweight stage over a schema between its ends: unverified", schemas: three,
             stages: ".lightweight(fromVersion: V1.self, toVersion: V3.self)", codes: ["CP611"]),
        Case(name: "a custom stage, then a lightweight one", schemas: three,
             stages: ".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil, didMigrate: { _ in }), .lightweight(fromVersion: V2.self, toVersion: V3.self)",
             codes: ["CP611"]),
        Case(name: "a stage goes backward (the container fails: no stage is audited)", schemas: three,
             stages: ".lightweight(fromVersion: V2.self, toVersion: V1.self), .lightweight(fromVersion: V2.self, toVersion: V3.self)",
             codes: ["CP608"]),
        Case(name: "a stage names a schema the plan leaves out", schemas: three,
             stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self), .lightweight(fromVersion: V2.self, toVersion: V3.self)",
             listed: "[V1.self, V2.self]", codes: ["CP607"]),
        Case(name: "two schemas share a version", schemas: [("V1", "1.0.0", title), ("V2", "1.0.0", body)], stages: "", codes: ["CP609"]),
        Case(name: "the oldest schema is in no stage", schemas: three,
             stages: ".lightweight(fromVersion: V2.self, toVersion: V3.self)", codes: ["CP505"]),
        Case(name: "no stages: a plain automatic migration", schemas: three, stages: "", codes: []),
        Case(name: "a custom stage whose ends hash the same", schemas: [("V1", "1.0.0", title), ("V2", "2.0.0", title)],
             stages: ".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil, didMigrate: nil)", codes: ["CP610"]),
        Case(name: "V3 only bumps V2's identifier behind a custom stage: the lightweight stage over both throws (CP610 stands for CP502)",
             schemas: [("V1", "1.0.0", title), ("V2", "2.0.0", body), ("V3", "3.0.0", body)],
             stages: ".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: { _ in }, didMigrate: nil), .lightweight(fromVersion: V2.self, toVersion: V3.self)",
             codes: ["CP610", "CP611"]),
        Case(name: "three schemas with one checksum: each later one paired with the one a stage holds it with (both errors)",
             schemas: [("V1", "1.0.0", title), ("V2", "2.0.0", title), ("V3", "3.0.0", title)],
             stages: ".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: { _ in }, didMigrate: nil), .lightweight(fromVersion: V2.self, toVersion: V3.self)",
             codes: ["CP610", "CP610", "CP611"]),
        Case(name: "two lightweight stages that do not meet, over schemas with one checksum: CP610 stands for CP502",
             schemas: [("V1", "1.0.0", title), ("V2", "2.0.0", body), ("V3", "3.0.0", body), ("V4", "4.0.0", pinned)],
             stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self), .lightweight(fromVersion: V3.self, toVersion: V4.self)",
             codes: ["CP610"]),
        Case(name: "V3 copies V2's shape without a stage over both: a warning (V3's checksum is V2's, so it is staged)",
             schemas: [("V1", "1.0.0", title), ("V2", "2.0.0", body), ("V3", "3.0.0", body)],
             stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)", codes: ["CP610"]),
    ]

    @Test(arguments: cases)
    func planFindings(_ test: Case) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = RuleExampleFixtures.swiftData(test.schemas, stages: test.stages).text
        if let listed = test.listed {
            text = text.replacingOccurrences(of: "[" + test.schemas.map { "\($0.name).self" }.joined(separator: ", ") + "]", with: listed)
        }
        let url = folder.appendingPathComponent("Models.swift")
        try Data(text.utf8).write(to: url)
        var options = PlanOptions()
        options.baseDirectory = folder
        let report = ChainPlanner(options: options).plan(inputAt: url)
        #expect(report.diagnostics.map(\.code.rawValue).sorted() == test.codes, "\(report.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        for finding in report.diagnostics {
            #expect(finding.location?.file == "Models.swift", "\(finding)")
            #expect(finding.location?.line != nil, "\(finding)")
        }
    }

    /// Why two schemas share a checksum, and how severe it is: in one stage an error, else a warning.
    @Test(arguments: [
        ("var title: String?", "var title: String?", "copies of one shape; only the versionIdentifier 1.0.0 → 2.0.0 differs"),
        ("var title: String?", "var title: String? = \"Untitled\"", "'Note.title' default none → 'Untitled'"),
        ("var title: String?", "#Index<Note>([\\.title])\nvar title: String?", "'Note' indexes change"),
    ])
    func whyTwoSchemasShareAChecksum(_ first: String, _ second: String, _ why: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Models.swift")
        try Data(RuleExampleFixtures.swiftData([("V1", "1.0.0", first), ("V2", "2.0.0", second)],
                                               stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)").text.utf8).write(to: url)
        var options = PlanOptions()
        options.baseDirectory = folder
        let findings = ChainPlanner(options: options).plan(inputAt: url).diagnostics
        #expect(findings.map(\.code.rawValue) == ["CP610"], "\(findings.map(\.message))")
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains(why) == true, "\(findings.map(\.message))")
        #expect(findings.first?.versions == ["V1", "V2"])
    }

    /// `.unique` added: a warning in a lightweight stage (the migration fails on stores with
    /// duplicates); a note in a custom stage whose willMigrate runs first and can remove them.
    @Test(arguments: [
        (".lightweight(fromVersion: V1.self, toVersion: V2.self)", Severity.warning),
        (".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: { _ in }, didMigrate: nil)", Severity.note),
        // Nothing runs before the migration: the unique index still meets the duplicates.
        (".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil, didMigrate: { _ in })", Severity.warning),
    ])
    func uniqueAddedInAStage(_ stage: String, _ severity: Severity) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Models.swift")
        try Data(RuleExampleFixtures.swiftData([("V1", "1.0.0", Self.title), ("V2", "2.0.0", "@Attribute(.unique) " + Self.title)],
                                               stages: stage).text.utf8).write(to: url)
        var options = PlanOptions()
        options.baseDirectory = folder
        let findings = ChainPlanner(options: options).plan(inputAt: url).diagnostics.filter { $0.code.rawValue == "CP210" }
        #expect(findings.map(\.severity) == [severity], "\(findings.map(\.message))")
        #expect(findings.first?.message.contains("custom stage") == (severity == .note), "\(findings.map(\.message))")
        // The rule configuration's stages change nothing: for SwiftData the plan says what runs.
        options.customStages = [StepKey(from: "V1", to: "V2")]
        let configured = ChainPlanner(options: options).plan(inputAt: url).diagnostics.filter { $0.code.rawValue == "CP210" }
        #expect(configured.map(\.severity) == [severity], "\(configured.map(\.message))")
    }

    /// A `.codable` payload's new shape: CP613 when the checksum moves for another reason; among
    /// CP610's reasons when it is the only change (the checksum does not see it).
    @Test(arguments: [("var title: String?", ["CP613"]), ("", ["CP610"])])
    func codablePayloadChanges(_ alsoAdded: String, _ codes: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Models.swift")
        let old = "struct Settings: Codable {\n    var theme: String\n}\n@Attribute(.codable) var settings: Settings?"
        let new = "struct Settings: Codable {\n    var theme: String\n    var size: Int\n}\n@Attribute(.codable) var settings: Settings?\n" + alsoAdded
        try Data(RuleExampleFixtures.swiftData([("V1", "1.0.0", old), ("V2", "2.0.0", new)],
                                               stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)").text.utf8).write(to: url)
        var options = PlanOptions()
        options.baseDirectory = folder
        let findings = ChainPlanner(options: options).plan(inputAt: url).diagnostics.filter { $0.code.rawValue != "CP611" }
        #expect(findings.map(\.code.rawValue) == codes, "\(findings.map(\.message))")
        #expect(findings.first?.message.contains("'Note.settings' @Attribute(.codable) payload + 'size: Int'") == true, "\(findings.map(\.message))")
        #expect(findings.first?.versions == ["V1", "V2"])
    }

    /// The plan's schemas are the chain, in the plan's order, and its custom stages are the spec's.
    @Test func thePlanIsTheChain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stages = ".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil, didMigrate: { _ in }), .lightweight(fromVersion: V2.self, toVersion: V3.self)"
        try Data(RuleExampleFixtures.swiftData(Self.three, stages: stages).text.utf8).write(to: folder.appendingPathComponent("Models.swift"))
        var options = PlanOptions()
        options.baseDirectory = folder
        let outcome = ChainPlanner(options: options).planned(inputAt: folder)
        #expect(outcome.report.versions == ["V1", "V2", "V3"])
        #expect(outcome.report.steps.map { "\($0.from)>\($0.to)" } == ["V1>V2", "V2>V3"])
        #expect(outcome.report.target == "V3")
        #expect(outcome.spec?.customStages.map(\.value) == [StepKey(from: "V1", to: "V2")])
        #expect(outcome.bundle?.currentVersion == "V3")
    }

    /// A schema's version is located in the file that declares its classes, so their lines are
    /// right; with classes in two files the lines are dropped rather than shown in the wrong file.
    @Test func versionsAreLocatedWhereTheirClassesAre() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = "import SwiftData\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Note.self] }\n}\n"
        try Data(schema.utf8).write(to: folder.appendingPathComponent("Schema.swift"))
        try Data("import SwiftData\nextension V1 {\n    @Model final class Note {\n        var title: String?\n    }\n}\n".utf8).write(to: folder.appendingPathComponent("Note.swift"))
        var options = PlanOptions()
        options.baseDirectory = folder
        let one = try #require(ChainPlanner(options: options).bundle(inputAt: folder)?.versions.first)
        #expect(one.path == "Note.swift")
        #expect(one.model?.entities.first?.attributes.first?.line == 4)
        try Data(schema.replacingOccurrences(of: "[Note.self]", with: "[Note.self, Tag.self]").utf8).write(to: folder.appendingPathComponent("Schema.swift"))
        try Data("import SwiftData\nextension V1 {\n    @Model final class Tag {\n        var name: String?\n    }\n}\n".utf8).write(to: folder.appendingPathComponent("Tag.swift"))
        let two = try #require(ChainPlanner(options: options).bundle(inputAt: folder)?.versions.first)
        #expect(two.path == "Schema.swift")
        #expect(two.model?.entities.allSatisfy { $0.line == nil && $0.attributes.allSatisfy { $0.line == nil } } == true)
    }

    /// CP612 for a container that lists classes: they must build the last schema's model.
    @Test(arguments: [("V2.Note", false), ("V1.Note", true), ("Note", false)])
    func containerListingClasses(_ listed: String, _ reported: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = RuleExampleFixtures.swiftData(Array(Self.three.prefix(2)), stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)").text
            + "typealias Note = V2.Note\nlet container = try ModelContainer(for: \(listed).self, migrationPlan: Plan.self)\n"
        let url = folder.appendingPathComponent("Models.swift")
        try Data(text.utf8).write(to: url)
        var options = PlanOptions()
        options.baseDirectory = folder
        let findings = ChainPlanner(options: options).plan(inputAt: url).diagnostics.filter { $0.code.rawValue == "CP612" }
        #expect(findings.count == (reported ? 1 : 0), "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.message.contains("the model of 'V1'") && $0.location?.line == 22 })
    }

    static func plan(_ schemas: [(name: String, version: String, note: String)], stages: String, after: String = "",
                     listed: String? = nil) throws -> [Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swiftplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = RuleExampleFixtures.swiftData(schemas, stages: stages).text + after
        if let listed { text = text.replacingOccurrences(of: "[" + schemas.map { "\($0.name).self" }.joined(separator: ", ") + "]", with: listed) }
        let url = folder.appendingPathComponent("Models.swift")
        try Data(text.utf8).write(to: url)
        var options = PlanOptions()
        options.baseDirectory = folder
        return ChainPlanner(options: options).plan(inputAt: url).diagnostics
    }

    /// The severity and the exception CP610 names follow the stage that holds both schemas.
    @Test func duplicateChecksumMessages() throws {
        let custom = try Self.plan([("V1", "1.0.0", Self.title), ("V2", "2.0.0", Self.title)],
                                   stages: ".custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil, didMigrate: nil)")
            .filter { $0.code.rawValue == "CP610" }
        #expect(custom.count == 1 && custom.first?.severity == .error)
        #expect(custom.first?.message.contains("cannot be equal") == true && custom.first?.message.contains("unverified") == true, "\(custom.map(\.message))")
        let apart = try Self.plan([("V1", "1.0.0", Self.title), ("V2", "2.0.0", Self.body), ("V3", "3.0.0", Self.body)],
                                  stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)")
            .filter { $0.code.rawValue == "CP610" }
        #expect(apart.count == 1 && apart.first?.severity == .warning, "\(apart.map(\.message))")
        #expect(apart.first?.message.contains("runs no migration between them") == true)
    }

    /// CP612 only where staged migration runs, and for a schema the plan leaves out too.
    @Test func containerChecks() throws {
        let two = [("V1", "1.0.0", Self.title), ("V2", "2.0.0", Self.body)]
        let noStages = try Self.plan(two, stages: "", after: "let container = try ModelContainer(for: Schema(versionedSchema: V1.self), migrationPlan: Plan.self)\n")
        #expect(!noStages.contains { $0.code.rawValue == "CP612" }, "\(noStages.map(\.message))")
        let unlisted = try Self.plan(two + [("V3", "3.0.0", Self.pinned)], stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)",
                                     after: "let container = try ModelContainer(for: Schema(versionedSchema: V3.self), migrationPlan: Plan.self)\n",
                                     listed: "[V1.self, V2.self]")
        let found = unlisted.filter { $0.code.rawValue == "CP612" }
        #expect(found.count == 1 && found.first?.message.contains("a model no schema of the plan has") == true, "\(unlisted.map(\.message))")
    }
}
