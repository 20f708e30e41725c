import Foundation
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

/// The code `chainplan stage --format swift|corestore` writes: golden files for every example
/// chain and the multi-step cases, each type-checked by `swiftc` against stub modules with Core
/// Data's and CoreStore's names and signatures (Tests/Fixtures/CoreDataStub, CoreStoreStub).
/// Checksums are fixture values (`fixture:<version>`): the hash engine or a compiled model gives
/// the real ones.
struct StageCodeTests {
    /// The stub modules, built once into a temporary folder.
    static let stubs: Result<URL, StubFailure> = buildStubs()

    struct StubFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// `swiftc` next to the running toolchain: `$SWIFT_EXEC`, then each `PATH` folder.
    static func swiftc() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"] { candidates.append(exec) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") { candidates.append("\(folder)/swiftc") }
        candidates.append("/opt/swift/usr/bin/swiftc")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    static func run(_ arguments: [String], in directory: URL) -> (status: Int32, output: String) {
        guard let compiler = swiftc() else { return (-1, "no swiftc found") }
        let process = Process()
        process.executableURL = compiler
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func buildStubs() -> Result<URL, StubFailure> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-stubs-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            return .failure(StubFailure(description: "\(error)"))
        }
        for module in ["CoreData", "CoreStore", "BackgroundTasks", "SQLite3"] {
            let source = Golden.fixtures.appendingPathComponent("\(module)Stub/\(module).swift").path
            let result = run(["-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", module, "-I", directory.path,
                              source, "-emit-module-path", directory.appendingPathComponent("\(module).swiftmodule").path], in: directory)
            guard result.status == 0 else { return .failure(StubFailure(description: "\(module) stub: \(result.output)")) }
        }
        return .success(directory)
    }

    /// Type-checks `source` against the stubs: one swiftc invocation.
    static func typecheck(_ source: String, name: String) throws -> String? {
        let directory = try Self.stubs.get()
        let file = directory.appendingPathComponent("\(name).swift")
        try Data(source.utf8).write(to: file)
        let result = run(["-typecheck", "-swift-version", "6", "-I", directory.path, file.path], in: directory)
        return result.status == 0 ? nil : result.output
    }

    static func fixtureIdentities(_ bundle: ModelBundle) -> VersionIdentities {
        VersionIdentities(byVersion: Dictionary(uniqueKeysWithValues: bundle.versionNames.map { ($0, VersionIdentity(checksum: "fixture:\($0)")) }),
                          source: "test fixture checksums")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var testDescription: String { name }
    }

    /// Every example chain, `Chains/aircraft-staged/chain-direct.json` (a custom stage whose
    /// handlers copy into a new entity), and the multi-step cases.
    static let cases: [Case] = (StageTests.chains + ["aircraft-staged-direct"] + StageTests.multiStep.map(\.name)).map(Case.init)

    static func plan(_ name: String) throws -> StagePlan {
        if let example = StageTests.multiStep.first(where: { $0.name == name }) {
            return try #require(example.example.stagePlan())
        }
        var options = PlanOptions()
        options.baseDirectory = CLITests.root
        let spec = CLITests.root.appendingPathComponent(name == "aircraft-staged-direct" ? "Chains/aircraft-staged/chain-direct.json" : "Chains/\(name)/chain.json")
        return try #require(ChainPlanner(options: options).stagePlan(inputAt: spec, identities: { fixtureIdentities($0) }).plan)
    }

    @Test(arguments: cases)
    func swiftCodeCompiles(_ c: Case) throws {
        let source = try #require(StagePlanSwift.render(try Self.plan(c.name)))
        #expect(try Golden.check(Data(source.utf8), against: "Golden/stages/\(c.name).swift.txt"))
        let problems = try Self.typecheck(source, name: "Staged_\(c.testDescription.replacingOccurrences(of: "-", with: "_"))")
        #expect(problems == nil, "\(problems ?? "")")
    }

    @Test(arguments: cases)
    func coreStoreCodeCompiles(_ c: Case) throws {
        let source = StagePlanCoreStore.render(try Self.plan(c.name))
        #expect(try Golden.check(Data(source.utf8), against: "Golden/stages/\(c.name).corestore.txt"))
        let problems = try Self.typecheck(source, name: "CoreStore_\(c.testDescription.replacingOccurrences(of: "-", with: "_"))")
        #expect(problems == nil, "\(problems ?? "")")
    }

    /// The type-check is live: a generated file with a misspelt Core Data name fails it (so a
    /// passing case above was compiled, not skipped).
    @Test func aBrokenSourceFailsTheTypecheck() throws {
        let source = try #require(StagePlanSwift.render(try Self.plan("notas")))
        #expect(try Self.typecheck(source, name: "Staged_notas_intact") == nil)
        let broken = source.replacingOccurrences(of: "NSLightweightMigrationStage(", with: "NSLightweightMigrationStages(")
        #expect(broken != source)
        let problems = try Self.typecheck(broken, name: "Staged_notas_broken")
        #expect(problems?.contains("NSLightweightMigrationStages") == true, "\(problems ?? "no problem reported")")
    }

    /// Without checksums there is no Swift code: constants are never made up.
    @Test func noSwiftWithoutChecksums() throws {
        var options = PlanOptions()
        options.baseDirectory = CLITests.root
        let spec = CLITests.root.appendingPathComponent("Chains/notas/chain.json")
        let plan = try #require(ChainPlanner(options: options).stagePlan(inputAt: spec, identities: { _ in nil }).plan)
        #expect(StagePlanSwift.render(plan) == nil)
    }
}
