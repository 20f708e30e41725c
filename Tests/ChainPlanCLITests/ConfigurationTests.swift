import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// `.chainplan.yml` and `chainplan rules`.
struct ConfigurationTests {
    static func read(_ text: String) -> RuleConfiguration.ReadResult {
        RuleConfiguration.read(data: Data(text.utf8), displayPath: ".chainplan.yml", codes: RuleCatalogue.all)
    }

    /// Every mistake is a CP130 at the offending token, and the configuration is not used.
    @Test(arguments: [
        ("rules:\n  CP999: off\n", "2:3", "unknown code 'CP999'"),
        ("rules:\n  CP104: sometimes\n", "2:10", "'sometimes' is not off, note, warning or error"),
        ("rules:\n  CP100: warning\n", "2:10", "CP100 cannot be set to warning"),
        ("rules:\n  CP209: off\n  cp209: note\n", "3:3", "CP209 is configured twice"),
        ("rules: [CP209]\n", "1:8", "'rules' must map codes"),
        ("thresholds:\n  max-spec-bytes: -3\n", "2:19", "max-spec-bytes must be a whole number"),
        ("thresholds:\n  speed: 11\n", "2:3", "unknown threshold 'speed'"),
        ("thresholds:\n  heavyweight-memory-mb: 0\n", "2:26", "heavyweight-memory-mb must be a whole number from 1 to 1048576"),
        ("colour: blue\n", "1:1", "unknown key 'colour'"),
        ("- a\n- b\n", "1:1", "must be a mapping"),
        ("rules: {CP209: off\n", "1:19", "invalid YAML"),
        ("a: &x [1]\nb: *x\n", "2:4", "aliases"),
    ])
    func mistakesAreLocated(_ text: String, _ place: String, _ message: String) {
        let result = Self.read(text)
        #expect(result.configuration == nil)
        #expect(result.diagnostics.map(\.code) == [.invalidConfiguration])
        let diagnostic = result.diagnostics.first
        #expect("\(diagnostic?.location?.line ?? 0):\(diagnostic?.location?.column ?? 0)" == place)
        #expect(diagnostic?.message.contains(message) == true, "\(diagnostic?.message ?? "")")
        #expect(diagnostic?.severity == .error)
    }

    @Test func settingsChangeSeveritiesAndOffDrops() throws {
        let configuration = try #require(Self.read("rules:\n  CP202: error\n  cp209: OFF\n  CP104: note\nthresholds:\n  max-listed-path-steps: 5\n").configuration)
        #expect(configuration.settings == [.renameWithoutIdentifier: .error, .dataRemoved: .off, .migrationCycle: .note])
        #expect(configuration.applying(to: PlanOptions()).maxListedPathSteps == 5)
        let diagnostics = [Diagnostic(.renameWithoutIdentifier, "rename"), Diagnostic(.dataRemoved, "gone"), Diagnostic(.migrationCycle, "cycle"), Diagnostic(.targetNotCurrentVersion, "target")]
        let report = ChainReport(spec: "c", model: nil, target: nil, versions: [], steps: [], paths: [], pathsAbbreviated: nil,
                                 diagnostics: diagnostics, summary: ChainReport.Summary(diagnostics: diagnostics))
        let applied = configuration.apply(to: report)
        #expect(applied.diagnostics.map { "\($0.code.rawValue):\($0.severity.rawValue)" } == ["CP202:error", "CP109:warning", "CP104:note"]) // re-sorted: errors, warnings, notes
        #expect(applied.summary.errors == 1 && applied.summary.notes == 1 && applied.summary.warnings == 1)
        #expect(Self.read("").configuration == RuleConfiguration())
        #expect(Self.read("thresholds:\n  heavyweight-memory-mb: 250\n").configuration?.heavyweightMemoryMB == 250)
    }

    /// A copy of an example in a temporary folder, so a `.chainplan.yml` can sit beside its spec.
    static func copyOfExample(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let example = CLITests.root.appendingPathComponent("Chains/\(name)")
        for item in try FileManager.default.contentsOfDirectory(atPath: example.path) {
            try FileManager.default.copyItem(at: example.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        return directory
    }

    /// `explain` follows `.chainplan.yml` beside the spec and `--config`, like validate.
    @Test func explainUsesTheConfiguration() async throws {
        let directory = try Self.copyOfExample("grocery-dude")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        func explain(_ extra: [String] = []) async throws -> (Int32, [String]) {
            let (status, text, _) = await OutputCapture.run(["explain", spec, "Model 3", "Model 4"] + extra)
            // The findings, not the change lines (which name their rule's code too).
            return (status, text.split(separator: "\n").map(String.init).filter { $0.contains(": note: ") || $0.contains(": warning: ") || $0.contains(": error: ") })
        }
        // Model 3 → Model 4 drops 'Amount' for 'Unit': one cause, one finding (the CP202 warning
        // names the deleted rows; no separate CP209 note repeats it).
        let (plain, plainFindings) = try await explain()
        #expect(plain == 0)
        #expect(plainFindings.contains { $0.contains(": warning: ") && $0.hasSuffix("[CP202]") })
        #expect(!plainFindings.contains { $0.hasSuffix("[CP209]") })

        try Data("rules:\n  CP202: error\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        let (configured, configuredFindings) = try await explain()
        #expect(configured == 1)
        #expect(configuredFindings.contains { $0.contains(": error: ") && $0.hasSuffix("[CP202]") })

        let lenient = directory.appendingPathComponent("lenient.yml")
        try Data("rules:\n  CP202: off\n".utf8).write(to: lenient)
        let (overridden, overriddenFindings) = try await explain(["--config", lenient.path])
        #expect(overridden == 0)
        #expect(overriddenFindings.isEmpty)

        try Data("rules:\n  CP2O2: error\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(try await explain().0 == 2)
    }

    /// Turning off the rule behind a blocking finding removes the finding and its effect on the
    /// exit status, and nothing else repeats it (no separate "not inferable" CP201): the
    /// events-two-passes step is refused only for its String → Binary Data change (CP204).
    @Test func turningOffABlockingRuleRemovesItsFindingAndItsExitStatus() async throws {
        let directory = try PassesCommandTests.eventsWithoutMappingModels()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        func validate() async -> (Int32, [String]) {
            let (status, text, _) = await OutputCapture.run(["validate", spec])
            return (status, text.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains(": note: ") })
        }
        let (plain, plainFindings) = await validate()
        #expect(plain == 1)
        #expect(plainFindings.filter { $0.contains(": error: ") }.count == 1)
        #expect(plainFindings.contains { $0.contains(": error: ") && $0.hasSuffix("[CP204]") })

        try Data("rules:\n  CP204: off\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        let (off, offFindings) = await validate()
        #expect(off == 0)
        #expect(!offFindings.contains { $0.hasSuffix("[CP204]") || $0.hasSuffix("[CP201]") || $0.contains(": error: ") })
        #expect(offFindings.contains { $0.hasSuffix("[CP209]") })
    }

    /// `fixture` reads the configuration too: an unusable one stops it before the store is written.
    @Test func fixtureUsesTheConfiguration() async throws {
        let directory = try Self.copyOfExample("grocery-dude")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        let store = directory.appendingPathComponent("store.sqlite")
        try Data("rules: [CP209]\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(await ChainPlan.run(arguments: ["fixture", spec, "--model-version", "Model", "--rows", "1", "-o", store.path]) == 2)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        let good = directory.appendingPathComponent("good.yml")
        try Data("thresholds:\n  heavyweight-memory-mb: 10\n".utf8).write(to: good)
        #expect(await ChainPlan.run(arguments: ["fixture", spec, "--model-version", "Model", "--rows", "1", "-o", store.path, "--config", good.path]) == 0)
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    /// `lock` reads the configuration: an unusable one stops it before chain.lock is written.
    @Test func lockUsesTheConfiguration() async throws {
        let directory = try Self.copyOfExample("grocery-dude")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        let lock = directory.appendingPathComponent("chain.lock")
        try Data("rules:\n  CP999: off\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(await ChainPlan.run(arguments: ["lock", spec]) == 2)
        #expect(!FileManager.default.fileExists(atPath: lock.path))
        let good = directory.appendingPathComponent("good.yml")
        try Data("rules:\n  CP209: off\n".utf8).write(to: good)
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--config", good.path]) == 0)
        #expect(FileManager.default.fileExists(atPath: lock.path))
        try FileManager.default.removeItem(at: lock)
        let broken = directory.appendingPathComponent("broken.yml")
        try Data("thresholds:\n  max-spec-bytes: lots\n".utf8).write(to: broken)
        try FileManager.default.removeItem(at: directory.appendingPathComponent(".chainplan.yml"))
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--config", broken.path]) == 2)
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }

    /// YAML 1.1 tools read an unquoted `off` as false and may write it back so; the schema allows it.
    @Test(arguments: ["false", "False", "FALSE", "off"])
    func falseMeansOff(_ word: String) throws {
        let result = Self.read("rules:\n  CP209: \(word)\n")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(result.configuration?.settings == [.dataRemoved: .off])
    }

    /// The schema names every code, with the settings the tool accepts for it.
    @Test func theSchemaMatchesWhatTheToolAccepts() throws {
        let url = CLITests.root.appendingPathComponent("Schemas/config.schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let rules = try #require(((schema["properties"] as? [String: Any])?["rules"] as? [String: Any])?["properties"] as? [String: [String: Any]])
        #expect(Set(rules.keys) == Set(RuleCatalogue.all.map(\.rawValue)))
        for code in RuleCatalogue.all {
            let entry = rules[code.rawValue] ?? [:]
            if code.unusableInput {
                #expect(entry["const"] as? String == "error", "\(code.rawValue)")
            } else {
                let accepted = (entry["enum"] as? [Any] ?? []).map { "\($0 as? String ?? (($0 as? Bool) == false ? "false" : "?"))" }
                #expect(accepted == ["off", "note", "warning", "error", "false"], "\(code.rawValue)")
                for word in accepted {
                    #expect(Self.read("rules:\n  \(code.rawValue): \(word)\n").diagnostics.isEmpty, "\(code.rawValue): \(word)")
                }
            }
        }
    }

    /// The file beside the spec is found by itself; --config names another; both change the exit status.
    @Test func theCLIUsesTheConfiguration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let example = CLITests.root.appendingPathComponent("Chains/grocery-dude")
        for item in try FileManager.default.contentsOfDirectory(atPath: example.path) {
            try FileManager.default.copyItem(at: example.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        let spec = directory.appendingPathComponent("chain.json").path
        #expect(await OutputCapture.run(["validate", spec]).status == 0)
        try Data("rules:\n  CP202: error\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(await OutputCapture.run(["validate", spec]).status == 1)
        let lenient = directory.appendingPathComponent("lenient.yml")
        try Data("rules:\n  CP202: note\n".utf8).write(to: lenient)
        #expect(await OutputCapture.run(["validate", spec, "--config", lenient.path, "--strict"]).status == 0)
        try Data("rules:\n  CP2O2: error\n".utf8).write(to: directory.appendingPathComponent(".chainplan.yml"))
        #expect(await OutputCapture.run(["validate", spec]).status == 2)
    }

    @Test func rulesListsEveryCodeAndExplainsOneWithItsExamples() throws {
        let all = RuleCatalogue.all.map { RuleExplanation($0, withExamples: false) }
        #expect(all.map(\.code) == RuleCatalogue.all.map(\.rawValue))
        let cycle = RuleExplanation(.migrationCycle)
        let examples = try #require(cycle.examples)
        #expect(examples.count == DiagnosticCode.migrationCycle.examples.count)
        #expect(examples.contains { $0.findings.contains { $0.contains("[CP104]") } })
        #expect(examples.contains { $0.findings.isEmpty })
        #expect(cycle.text.contains("Example: "))
        // Classification codes show their model versions and run through the real classifier.
        let required = RuleExplanation(.couldFailValidation)
        let requiredExamples = try #require(required.examples)
        #expect(requiredExamples.count == DiagnosticCode.couldFailValidation.examples.count)
        #expect(requiredExamples.first?.spec.hasPrefix("V1: <entity") == true)
        #expect(requiredExamples.first?.findings.first?.contains("[CP203]") == true)
        #expect(requiredExamples.last?.findings.isEmpty == true)
        // Input codes show their project folder and run through the real pipeline.
        let locked = RuleExplanation(.shippedVersionChanged)
        let lockedExamples = try #require(locked.examples)
        #expect(lockedExamples.count == DiagnosticCode.shippedVersionChanged.examples.count)
        #expect(lockedExamples.first?.spec.contains("chain.lock: written by 'chainplan lock'") == true)
        #expect(lockedExamples.first?.findings.first?.contains("[CP401]") == true)
        #expect(locked.text.contains("Example: "))
    }

    /// Every code's explanation has an example whose run shows the code.
    @Test(arguments: RuleCatalogue.all.filter { !RuleCatalogue.withoutFiringExample.contains($0) })
    func everyRuleShowsAFiringExample(_ code: DiagnosticCode) throws {
        let examples = try #require(RuleExplanation(code).examples)
        #expect(examples.contains { $0.findings.contains { $0.hasSuffix("[\(code.rawValue)]") } }, "\(code.rawValue)")
    }
}
