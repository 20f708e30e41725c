import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanPlanning
@testable import ChainPlanStore

/// `chainplan passes` under the rule configuration (`.chainplan.yml` beside the spec, or
/// `--config`), as every other command, and the store of `--store` identified by its version
/// hashes against the step's source version (CP708).
struct PassesConfigurationTests {
    struct ConfigCase: Sendable, CustomTestStringConvertible {
        var title: String
        /// The `.chainplan.yml` written beside the copy of the events example (nil: none), or
        /// with `named`, a file given by `--config`.
        var yaml: String?
        var named = false
        var status: Int32
        /// CP701's severity in the report, or nil when it is not reported.
        var unmapped: Severity?
        var testDescription: String { title }
    }

    /// The events example's pass set forgets Organizer: CP701, an error by default.
    static let configCases = [
        ConfigCase(title: "no configuration: CP701 is an error", yaml: nil, status: 1, unmapped: .error),
        ConfigCase(title: ".chainplan.yml lowers CP701 to a warning", yaml: "rules:\n  CP120: note\n  CP701: warning\n", status: 0, unmapped: .warning),
        ConfigCase(title: ".chainplan.yml turns CP701 off", yaml: "rules:\n  CP701: off\n", status: 0, unmapped: nil),
        ConfigCase(title: "--config names the file", yaml: "rules:\n  CP701: note\n", named: true, status: 0, unmapped: .note),
        ConfigCase(title: "an unusable configuration is CP130, exit 2", yaml: "rules:\n  CP7O1: off\n", status: 2, unmapped: nil),
    ]

    @Test(arguments: configCases)
    func passesFollowTheConfiguration(_ c: ConfigCase) async throws {
        let directory = try ConfigurationTests.copyOfExample("events-two-passes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let implicit = directory.appendingPathComponent(".chainplan.yml")
        try? FileManager.default.removeItem(at: implicit)
        var extra: [String] = []
        var configuration: URL?
        if let yaml = c.yaml {
            let file = c.named ? directory.appendingPathComponent("rules.yml") : implicit
            try Data(yaml.utf8).write(to: file)
            if c.named {
                extra = ["--config", file.path]
                configuration = file
            }
        }
        let spec = directory.appendingPathComponent("chain.json")
        let (status, output, _) = try await PassesCommandTests.run(["passes", spec.path, "Events", "Events 2", "--format", "json"] + extra)
        #expect(status == c.status, "\(output)")
        let result = ChainPlanner().passes(inputAt: spec, from: "Events", to: "Events 2", storeAt: nil, maxMemoryBytes: nil, configuration: configuration)
        switch result {
        case .success(let report):
            #expect(c.status != 2)
            #expect(report.diagnostics.first { $0.code == .unmappedEntity }?.severity == c.unmapped)
        case .failure(let failure):
            #expect(c.status == 2)
            #expect(failure.diagnostics.map(\.code) == [.invalidConfiguration])
        }
    }

    /// `heavyweight-memory-mb` is the budget when --max-memory-mb is not given (as the dry run's CP303).
    @Test func theMemoryThresholdIsTheDefaultBudget() throws {
        let directory = try Self.schoolCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(at: "School", in: directory)
        let spec = directory.appendingPathComponent("chain.json")
        let unbounded = try ChainPlanner().passes(inputAt: spec, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: nil).get()
        #expect(unbounded.maxMemoryBytes == nil && unbounded.diagnostics.isEmpty)
        try Data("thresholds:\n  heavyweight-memory-mb: 1\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        let bounded = try ChainPlanner().passes(inputAt: spec, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: nil).get()
        #expect(bounded.maxMemoryBytes == 1 << 20)
        // An explicit budget wins over the configuration's.
        let explicit = try ChainPlanner().passes(inputAt: spec, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: 5 << 20).get()
        #expect(explicit.maxMemoryBytes == 5 << 20)
    }

    struct StoreCase: Sendable, CustomTestStringConvertible {
        var title: String
        var storeVersion: String
        var yaml: String?
        var status: Int32
        var codes: [DiagnosticCode]
        var testDescription: String { title }
    }

    static let storeCases = [
        StoreCase(title: "a store of the source version", storeVersion: "School", yaml: nil, status: 0, codes: []),
        StoreCase(title: "a store of the destination version: CP708", storeVersion: "School 2", yaml: nil, status: 0, codes: [.passStoreNotAtSource]),
        StoreCase(title: "CP708 raised to an error by .chainplan.yml", storeVersion: "School 2", yaml: "rules:\n  CP708: error\n", status: 1,
                  codes: [.passStoreNotAtSource]),
    ]

    /// The store is identified by its version hashes, as the dry run does; another version than
    /// the step's source is CP708, which names both versions.
    @Test(arguments: storeCases)
    func theStoreIsCheckedAgainstTheSourceVersion(_ c: StoreCase) async throws {
        let directory = try Self.schoolCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        if let yaml = c.yaml { try Data(yaml.utf8).write(to: directory.appendingPathComponent(".chainplan.yml")) }
        let store = try Self.store(at: c.storeVersion, in: directory)
        let spec = directory.appendingPathComponent("chain.json")
        let report = try ChainPlanner().passes(inputAt: spec, from: "School", to: "School 2", storeAt: store.path, maxMemoryBytes: nil).get()
        #expect(report.diagnostics.map(\.code) == c.codes)
        if let finding = report.diagnostics.first {
            #expect(finding.message.contains("at version '\(c.storeVersion)'") && finding.message.contains("not at 'School'"), "\(finding.message)")
            #expect(finding.location?.file.hasSuffix("school.sqlite") == true)
        }
        let (status, _, _) = try await PassesCommandTests.run(["passes", spec.path, "School", "School 2", "--store", store.path])
        #expect(status == c.status)
    }

    /// A copy of the school fixture (the caller removes it).
    static func schoolCopy() throws -> URL {
        let directory = try PassesCommandTests.temporaryDirectory()
        let fixture = PassesCommandTests.school.deletingLastPathComponent()
        for item in try FileManager.default.contentsOfDirectory(atPath: fixture.path) {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        return directory
    }

    /// A fixture store of `version` of the school bundle, in `directory`.
    static func store(at version: String, in directory: URL) throws -> URL {
        let bundle = try #require(ChainPlanner().bundle(inputAt: directory.appendingPathComponent("chain.json")))
        let model = try #require(bundle.version(named: version)?.model)
        let store = directory.appendingPathComponent("school.sqlite")
        _ = try StoreFixtureWriter(rowsPerEntity: 50).write(model: model, versionName: version, to: store.path)
        return store
    }
}
