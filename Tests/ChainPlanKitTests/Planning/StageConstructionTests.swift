import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanPlanning

/// A stage list Core Data cannot build (reference §6.1 fact 6 and the exception table) crashes
/// the app before any store is opened: `--check` shows every start crashing with the initializer
/// that throws and its exact reason, never a migration that cannot happen. Lists that can be
/// built (a stale lightweight checksum included: it fails at load, not in the initializer) are
/// simulated as before.
struct StageConstructionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var title: String
        var list: String
        /// The initializer that throws, nil when the list can be built.
        var thrownBy: String?
        var reason: String?
        var testDescription: String { title }
    }

    static let cases: [Case] = [
        Case(title: "a checksum twice in a lightweight stage", list: #"[{"kind": "lightweight", "checksums": ["sum-V1", "sum-V2", "sum-V2", "sum-V3"]}]"#,
             thrownBy: "NSLightweightMigrationStage's initializer", reason: StageSimulation.Reason.duplicateInStage),
        Case(title: "a custom stage from a model to itself, after a valid one",
             list: #"[{"kind": "lightweight", "checksums": ["sum-V1"]}, {"kind": "custom", "checksums": ["sum-V2", "sum-V2"]}, {"kind": "lightweight", "checksums": ["sum-V3"]}]"#,
             thrownBy: "NSCustomMigrationStage's initializer", reason: StageSimulation.Reason.equalEndpoints),
        Case(title: "a lightweight member that is also a custom endpoint",
             list: #"[{"kind": "lightweight", "checksums": ["sum-V1", "sum-V2"]}, {"kind": "custom", "checksums": ["sum-V2", "sum-V3"]}]"#,
             thrownBy: "NSStagedMigrationManager's initializer", reason: StageSimulation.Reason.duplicateAcrossStages),
        Case(title: "one checksum in two lightweight stages",
             list: #"[{"kind": "lightweight", "checksums": ["sum-V1", "sum-V2"]}, {"kind": "lightweight", "checksums": ["sum-V2", "sum-V3"]}]"#,
             thrownBy: "NSStagedMigrationManager's initializer", reason: StageSimulation.Reason.duplicateAcrossStages),
        Case(title: "a custom reference naming no version",
             list: #"[{"kind": "lightweight", "checksums": ["sum-V1"]}, {"kind": "custom", "checksums": ["sum-V2", "stale"]}, {"kind": "lightweight", "checksums": ["sum-V3"]}]"#,
             thrownBy: "NSStagedMigrationManager's initializer", reason: StageSimulation.Reason.duplicateAcrossStages),
        Case(title: "a stale lightweight checksum: built, fails at load", list: #"[{"kind": "lightweight", "checksums": ["sum-V1", "sum-V2", "stale", "sum-V3"]}]"#,
             thrownBy: nil, reason: nil),
        Case(title: "a valid list", list: #"[{"kind": "lightweight", "checksums": ["sum-V1"]}, {"kind": "custom", "checksums": ["sum-V2", "sum-V3"]}]"#,
             thrownBy: nil, reason: nil),
    ]

    static func input() -> StageListAudit.Input {
        let names = ["V1", "V2", "V3"]
        var versions: [ModelVersion] = []
        for (name, entities) in zip(names, RuleExampleFixtures.three) {
            let path = "Example.xcdatamodeld/\(name).xcdatamodel/contents"
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
            versions.append(ModelVersion(name: name, path: path, model: ModelContentsParser().parse(Data(text.utf8), file: path, version: name).model))
        }
        let bundle = ModelBundle(name: "Example", path: "Example.xcdatamodeld", versions: versions, currentVersion: "V3")
        let identities = VersionIdentities(byVersion: Dictionary(uniqueKeysWithValues: names.map { ($0, VersionIdentity(checksum: "sum-\($0)")) }), source: "example")
        return StageListAudit.Input(order: names, identities: identities, bundle: bundle)
    }

    @Test(arguments: cases)
    func startsCrashWhenTheListCannotBeBuilt(_ c: Case) throws {
        let (starts, findings) = StageListAudit.audit(c.list, file: "stages.json", input: Self.input())
        #expect(starts.map(\.version) == ["V1", "V2", "V3"])
        #expect(!findings.contains { $0.code == .unreadableSpec }, "\(findings.map(\.message))")
        if let thrownBy = c.thrownBy {
            // The findings name the cause; every start, the compatible one too, crashes first.
            #expect(!findings.isEmpty)
            for run in starts {
                #expect(run.error?.thrownBy == thrownBy, "\(run.version): \(String(describing: run.error))")
                #expect(run.error?.reason == c.reason)
                #expect(run.jumps.isEmpty && run.handlers.isEmpty && run.stagesRun.isEmpty && run.endsOn == nil)
            }
        } else {
            #expect(starts.allSatisfy { $0.error?.thrownBy == nil })
            #expect(starts.last?.summary == "compatible with the app model: no stage runs")
        }
    }
}
