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

/// Reference §7.3 across a chain: deferred columns pile up, a later rebuild makes them vanish
/// and leaves the metadata key set with nothing to finish, finish work is one task per table.
struct DeferredChainTests {
    static let folder = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    static func note(_ attributes: [String], folder: Bool = true) -> String {
        folder_ + #"<entity name="Note">"# + attributes.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined()
            + (folder ? #"<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>"# : "") + "</entity>"
    }
    static let folder_ = folder

    static func follow(_ versions: [String], deferring: Bool = true, mappingModelAt: Int? = nil) -> DeferredChain? {
        let models = versions.enumerated().map { DeferredWorkTests.model($0.element, name: "V\($0.offset + 1)") }
        var steps: [(from: String, to: String, work: SQLiteWork?)] = []
        for index in 1..<models.count {
            guard let source = models[index - 1], let destination = models[index] else { return nil }
            let path: SQLiteWork.Path = index == mappingModelAt ? .mappingModel : .inPlace
            steps.append(("V\(index)", "V\(index + 1)", SQLiteWork.analyze(source: source, destination: destination, path: path, deferring: deferring)))
        }
        return DeferredChain.follow(start: "V1", steps: steps)
    }

    @Test func twoStepsAccumulateInOneFinishTask() throws {
        let chain = try #require(Self.follow([Self.note(["title", "body", "extra"]), Self.note(["title", "extra"]), Self.note(["title"])]))
        #expect(chain.finishTasks.count == 1)
        #expect(chain.finishTasks.first?.table == "ZNOTE")
        #expect(chain.finishTasks.first?.columns.map(\.column) == ["ZBODY", "ZEXTRA"])
        #expect(chain.finishTasks.first?.columns.map(\.step) == ["V1 → V2", "V2 → V3"])
        #expect(chain.vanished.isEmpty && !chain.staleKey)
        #expect(chain.summary == "V1: 1 finish task (ZNOTE: ZBODY, ZEXTRA)")
    }

    @Test func aLaterRebuildDropsThemAndLeavesTheKeyStale() throws {
        let chain = try #require(Self.follow([Self.note(["title", "body"]), Self.note(["title"]), Self.note(["title"], folder: false)]))
        #expect(chain.finishTasks.isEmpty)
        #expect(chain.vanished.map(\.table) == ["ZNOTE"])
        #expect(chain.vanished.first?.step == "V2 → V3")
        #expect(chain.vanished.first?.by == "rebuilt")
        #expect(chain.staleKey)
        #expect(chain.summary.contains("the metadata key stays set with nothing to finish"))
    }

    @Test func aMappingModelStepCopiesThemAway() throws {
        let chain = try #require(Self.follow([Self.note(["title", "body"]), Self.note(["title"]), Self.note(["title", "extra"])], mappingModelAt: 2))
        #expect(chain.vanished.first?.by == "mapping-model")
        #expect(chain.staleKey)
    }

    @Test func withoutTheOptionNothingIsPending() throws {
        let chain = try #require(Self.follow([Self.note(["title", "body"]), Self.note(["title"])], deferring: false))
        #expect(chain.isEmpty)
    }

    /// Plans an inferred array over `versions` (named V1, V2, …) through validate's pipeline.
    static func plan(_ versions: [String], deferring: Bool) -> ChainReport {
        var modelVersions: [ModelVersion] = []
        for (index, entities) in versions.enumerated() {
            let name = "V\(index + 1)"
            let path = "Example.xcdatamodeld/\(name).xcdatamodel/contents"
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
            modelVersions.append(ModelVersion(name: name, path: path, model: ModelContentsParser().parse(Data(text.utf8), file: path, version: name).model))
        }
        let names = modelVersions.map(\.name)
        let bundle = ModelBundle(name: "Example", path: "Example.xcdatamodeld", versions: modelVersions, currentVersion: names.last)
        let spec = ChainSpec.inferred(versions: names, file: "chain.json")
        var options = PlanOptions()
        options.deferredLightweightMigration = deferring
        return ChainPlanner(options: options).plan(spec: spec, bundle: bundle, isInferred: false)
    }

    /// The chain report says the same through validate's pipeline (text lines).
    @Test func reportLines() throws {
        let versions = [Self.note(["title", "body"]), Self.note(["title"])]
        let on = Self.plan(versions, deferring: true)
        #expect(DeferralLines.lines(on) == ["deferred: 'V1' → 'V2' renames ZNOTE.ZBODY (attribute-removed)",
                                            "finish work per start: V1: 1 finish task (ZNOTE: ZBODY)"])
        let off = Self.plan(versions, deferring: false)
        #expect(DeferralLines.lines(off) == ["deferral would avoid 1 table rebuild: ZNOTE in 'V1' → 'V2'"])
    }

    /// A direct jump's SQLite work is analysed only with the option on (no output reads it
    /// otherwise); every step's is analysed either way (the avoidable-rebuild line).
    @Test func directJumpWorkOnlyWithTheOption() throws {
        let versions = [Self.note(["title", "body", "rank"]), Self.note(["title", "body"]), Self.note(["title"])]
        let on = Self.plan(versions, deferring: true)
        let onDirect = try #require(on.paths.first { $0.start == "V1" }?.direct)
        #expect(onDirect.sqlite?.tables.first { $0.table == "ZNOTE" }?.work == .deferred)
        let off = Self.plan(versions, deferring: false)
        let offDirect = try #require(off.paths.first { $0.start == "V1" }?.direct)
        #expect(offDirect.sqlite == nil)
        #expect(off.steps.allSatisfy { $0.sqlite != nil })
    }
}
