import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanSwiftSource

/// Bare and dotted names resolve as Swift resolves them (reference §9.2): nested types first,
/// then the enclosing schema's members from every extension in any file, then the top level;
/// an extension of `SchemaVn.T` skips `SchemaVn`'s members; typealiases are followed.
struct SwiftNameResolutionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String]
        /// Schema → the qualified class names of its entities, sorted.
        var expected: [String: [String]]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a nested type wins over a top-level one", files: ["""
            @Model final class Stop { var live = "" }
            enum SchemaV2: VersionedSchema {
                static let versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Trip.self] }
                @Model final class Trip { var stops: [Stop] = [] }
                @Model final class Stop { var name = "" }
            }
            """], expected: ["SchemaV2": ["SchemaV2.Stop", "SchemaV2.Trip"]]),
        Case(name: "without a nested one, the top-level type (the live-type trap)", files: ["""
            @Model final class Stop { var live = "" }
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Trip.self] }
                @Model final class Trip { var stops: [Stop] = [] }
            }
            """], expected: ["SchemaV1": ["SchemaV1.Trip", "Stop"]]),
        Case(name: "an extension of the schema in another file sees the schema's members", files: ["""
            enum SchemaV2: VersionedSchema {
                static let versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Leg.self] }
            }
            @Model final class Stop { var live = "" }
            """, """
            extension SchemaV2 { @Model final class Leg { var stop: Stop? } }
            """, """
            extension SchemaV2 { @Model final class Stop { var name = "" } }
            """], expected: ["SchemaV2": ["SchemaV2.Leg", "SchemaV2.Stop"]]),
        Case(name: "an extension of SchemaV2.Trip skips SchemaV2's members", files: ["""
            @Model final class Stop { var live = "" }
            enum SchemaV2: VersionedSchema {
                static let versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Trip.self] }
                @Model final class Trip { var target: Target? }
                @Model final class Stop { var name = "" }
            }
            extension SchemaV2.Trip { typealias Target = Stop }
            """], expected: ["SchemaV2": ["SchemaV2.Trip", "Stop"]]),
        Case(name: "a typealias chain, declared after its use", files: ["""
            enum AppSchema: VersionedSchema {
                static let versionIdentifier = Schema.Version(3, 0, 0)
                static var models: [any PersistentModel.Type] { [Current.self] }
            }
            typealias Current = Middle
            typealias Middle = Models.Trip
            enum Models { @Model final class Trip { var name = "" } }
            """], expected: ["AppSchema": ["Models.Trip"]]),
        Case(name: "a qualified name and a nested schema", files: ["""
            enum Outer {
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [DataV1.User.self] }
                }
            }
            enum DataV1 {}
            extension DataV1 { @Model final class User { var name: String? } }
            """], expected: ["Outer.SchemaV1": ["DataV1.User"]]),
    ]

    @Test(arguments: cases)
    func resolves(_ c: Case) throws {
        let files = c.files.enumerated().map { ("File\($0.offset + 1).swift", "import SwiftData\n" + $0.element) }
        let project = SwiftDataTestSupport.read(files)
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics.map { "\($0.location?.description ?? "") \($0.message)" })")
        var found: [String: [String]] = [:]
        for version in project.versions {
            found[version.name] = (version.model?.entities.compactMap(\.representedClassName) ?? []).sorted()
        }
        #expect(found == c.expected)
    }

    /// What cannot be resolved is a CP602 finding at the place that names it, and the version
    /// has no model: never a guess.
    @Test(arguments: [
        ("@Model final class Thing { var spot: CLLocationCoordinate2D? }", 5, "CLLocationCoordinate2D"),
        ("@Model final class Thing { var x = makeValue() }", 5, "makeValue()"),
        ("@Model final class Thing { var a: Loop? }\ntypealias Loop = Pool\ntypealias Pool = Loop", 5, "Loop"),
    ])
    func unresolvableIsAFinding(_ body: String, _ line: Int, _ named: String) throws {
        let project = SwiftDataTestSupport.read([("Models.swift", SwiftDataTestSupport.schema(body))])
        let finding = try #require(project.diagnostics.first { $0.code == .unresolvedSwiftName }, "\(project.diagnostics.map(\.message))")
        #expect(finding.location?.file == "Models.swift")
        #expect(finding.location?.line == line)
        #expect(finding.location?.column != nil)
        #expect(finding.message.contains(named), "\(finding.message)")
        #expect(project.versions.first?.model == nil)
        #expect(project.versions.first?.failure != nil)
    }

    /// A name qualified by the sources' own module (`MyApp.Trip`) is read once the module name
    /// is stated; unstated, it is a CP602 that says how to state it. A type of the module's
    /// name shadows the module, as in Swift.
    @Test(arguments: [
        ("MyApp", nil, ["SchemaV1": ["Place", "SchemaV1.Trip"]]),
        (nil, "state it with --module-name MyApp", [:]),
        ("Other", "state it with --module-name MyApp", [:]),
    ] as [(String?, String?, [String: [String]])])
    func moduleQualifiedNames(_ moduleName: String?, _ hint: String?, _ expected: [String: [String]]) throws {
        let source = """
            import SwiftData
            @Model final class Place { var name = "" }
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [MyApp.SchemaV1.Trip.self] }
                @Model final class Trip { var place: MyApp.Place? }
            }
            """
        let project = SwiftDataReader.read(files: [(path: "Models.swift", text: source)],
                                           configuration: StatedConfiguration(moduleName: moduleName))
        var found: [String: [String]] = [:]
        for version in project.versions {
            if let model = version.model { found[version.name] = model.entities.compactMap(\.representedClassName).sorted() }
        }
        #expect(found == expected)
        if let hint {
            let finding = try #require(project.diagnostics.first { $0.code == .unresolvedSwiftName })
            #expect(finding.message.contains("MyApp"), "\(finding.message)")
            #expect(finding.message.contains(hint) == (moduleName == nil), "\(finding.message)")
            #expect(finding.location?.line == 5)
        } else {
            #expect(project.diagnostics.isEmpty, "\(project.diagnostics.map(\.message))")
        }
    }

    @Test func aTypeNamedLikeTheModuleShadowsIt() {
        let source = """
            import SwiftData
            enum MyApp { @Model final class Trip { var name = "" } }
            @Model final class Trip { var live = "" }
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [MyApp.Trip.self] }
            }
            """
        let project = SwiftDataReader.read(files: [(path: "Models.swift", text: source)],
                                           configuration: StatedConfiguration(moduleName: "MyApp"))
        #expect(project.versions.first?.model?.entities.compactMap(\.representedClassName) == ["MyApp.Trip"])
    }

    @Test func computedModelsAreAFinding() throws {
        let source = """
            import SwiftData
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { SchemaV0.models + [Thing.self] }
                @Model final class Thing { var name = "" }
            }
            """
        let project = SwiftDataTestSupport.read([("Models.swift", source)])
        let finding = try #require(project.diagnostics.first { $0.code == .unresolvedSwiftName })
        #expect(finding.location == SourceLocation(file: "Models.swift", line: 4, column: 53))
        #expect(finding.message.contains("computed"))
        #expect(project.versions.first?.failure != nil)
    }

    /// Without any VersionedSchema, the app's container names its one version.
    @Test func unversionedAppUsesTheContainer() throws {
        let source = """
            import SwiftData
            @Model final class Trip { var name = ""; var stops: [Stop] = [] }
            @Model final class Stop { var trip: Trip? }
            @Model final class Unused { var x = 0 }
            struct App { var body: some Scene { WindowGroup {}.modelContainer(for: [Trip.self]) } }
            """
        let project = SwiftDataTestSupport.read([("App.swift", source)])
        let version = try #require(project.versions.first)
        #expect(project.versions.count == 1)
        #expect(version.name == "ModelContainer")
        #expect(version.model?.entities.map(\.name).sorted() == ["Stop", "Trip"])
        #expect(version.unverified.contains { $0.contains("identifier") })
    }

    /// `#if` is decided under the stated configuration (an iOS release build): the active clause
    /// is read; one it cannot decide (`canImport` of the app's own packages) is a finding, its
    /// first clause read and the hashes marked, never silence. Each case: the schema's body, the
    /// attributes of `Thing`, and whether a CP602 is expected.
    @Test(arguments: [
        ("#if os(iOS)\n@Model final class Thing { var name = \"\" }\n#endif", ["name"], false),
        ("#if os(macOS)\n@Model final class Thing { var mac = \"\" }\n#else\n@Model final class Thing { var phone = \"\" }\n#endif", ["phone"], false),
        ("#if DEBUG\n@Model final class Thing { var debug = \"\" }\n#else\n@Model final class Thing { var release = \"\" }\n#endif", ["release"], false),
        ("@Model final class Thing {\n    var name = \"\"\n    #if canImport(UIKit)\n    var color: String?\n    #endif\n}", ["color", "name"], false),
        ("#if canImport(Firebase)\n@Model final class Thing { var first = \"\" }\n#else\n@Model final class Thing { var second = \"\" }\n#endif", ["first"], true),
        ("@Model final class Thing {\n    var name = \"\"\n    #if canImport(Firebase)\n    var remote: String?\n    #endif\n}", ["name"], true),
    ] as [(String, [String], Bool)])
    func conditionalCompilation(_ body: String, _ attributes: [String], _ undecided: Bool) throws {
        let project = SwiftDataTestSupport.read([("Models.swift", SwiftDataTestSupport.schema(body))])
        let model = try #require(project.versions.first?.model, "\(project.diagnostics.map(\.message))")
        #expect(model.entity(named: "Thing")?.attributes.map(\.name).sorted() == attributes)
        let findings = project.diagnostics.filter { $0.code == .unresolvedSwiftName && $0.message.contains("#if") }
        #expect(findings.count == (undecided ? 1 : 0), "\(project.diagnostics.map(\.message))")
        #expect(findings.allSatisfy { $0.message.contains("os(iOS), arm64, no -D conditions") && $0.message.contains("Firebase") })
        #expect((project.versions.first?.unverified.contains { $0.contains("#if") } ?? false) == undecided)
    }

    /// A schema's static members under `#if` are read from the active clause.
    @Test func staticMembersUnderIf() throws {
        let source = """
            import SwiftData
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                #if os(macOS)
                static var models: [any PersistentModel.Type] { [Desk.self] }
                #else
                static var models: [any PersistentModel.Type] { [Phone.self] }
                #endif
                @Model final class Desk { var name = "" }
                @Model final class Phone { var number = "" }
            }
            """
        let project = SwiftDataTestSupport.read([("Models.swift", source)])
        #expect(project.versions.first?.model?.entities.map(\.name) == ["Phone"], "\(project.diagnostics.map(\.message))")
        #expect(!project.diagnostics.contains { $0.code == .unresolvedSwiftName }, "\(project.diagnostics.map(\.message))")
    }

    /// Plans: schemas, stages written inline or as static members.
    @Test func migrationPlanIsRead() throws {
        let url = SwiftDataTestSupport.fixtures.appendingPathComponent("Trips")
        let project = SwiftDataReader.read(at: url, displayPath: "Trips")
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics.map(\.message))")
        #expect(project.versions.map(\.name) == ["TripsSchemaV1", "TripsSchemaV2"])
        #expect(project.versions.map(\.identifier) == ["1.0.0", "2.0.0"])
        let plan = try #require(project.plans.first)
        #expect(plan.name == "TripsMigrationPlan")
        #expect(plan.schemas == ["TripsSchemaV1", "TripsSchemaV2"])
        #expect(plan.stages.map(\.kind) == [.custom])
        #expect(plan.stages.first?.from == "TripsSchemaV1")
        #expect(plan.stages.first?.to == "TripsSchemaV2")
        #expect(plan.stages.first?.hasWillMigrate == false)
        #expect(plan.stages.first?.hasDidMigrate == true)
        let v2 = try #require(project.versions.last?.model)
        #expect(v2.entity(named: "Trip")?.relationships.first?.inverseName == "trip")
        #expect(v2.entity(named: "Trip")?.attributes.map(\.name) == ["name", "start", "summary"])
    }
}
