import ChainPlanCore
import ChainPlanReaders
import Foundation

/// A worked example of a staged-migration finding: successive versions of a small model (each
/// version's `<entity>` elements, versions `V1`, `V2`, …, the last is the app model), their
/// checksums (`V1` has checksum `sum-V1` unless `sameChecksum` says otherwise) and either a stage
/// list to audit, written with version names standing for their checksums, or nil: chainplan's
/// own plan is made. A stage is `lightweight`, `custom` (with handlers) or `bridge` (a custom stage
/// without handlers). `chainplan rules CPnnn` prints and runs them; so does their test.
public struct StageExample: Sendable, Hashable, CustomStringConvertible {
    public var title: String
    public var versions: [String]
    /// Versions (by index) that share the checksum of the version before them.
    public var sameChecksum: Set<Int>
    /// `[["lightweight", "V1", "V2"], ["custom", "V2", "V3"]]`-like stages; nil: synthesise a plan.
    public var stages: [[String]]?
    public var expected: Int

    public init(_ title: String, versions: [String], sameChecksum: Set<Int> = [], stages: [[String]]?, expected: Int) {
        self.title = title
        self.versions = versions
        self.sameChecksum = sameChecksum
        self.stages = stages
        self.expected = expected
    }

    public var description: String { title }

    public var names: [String] { versions.indices.map { "V\($0 + 1)" } }

    /// The example as shown by `rules`: the versions, then the stage list.
    public var shown: String {
        var lines = zip(names, versions).map { "\($0): \($1)" }
        if let stages {
            lines.append("stages: " + stages.map { "\($0.first ?? "")(\($0.dropFirst().joined(separator: ", ")))" }.joined(separator: ", "))
        } else {
            lines.append("(chainplan's own stage plan)")
        }
        return lines.joined(separator: "\n")
    }

    /// Runs the real synthesis or audit.
    public func run() -> [Diagnostic] { evaluate().findings }

    /// chainplan's own plan for the example's versions (its stage list ignored).
    public func plan() -> StagePlan? {
        var copy = self
        copy.stages = nil
        return copy.evaluate().plan
    }

    private func evaluate() -> (findings: [Diagnostic], plan: StagePlan?) {
        var modelVersions: [ModelVersion] = []
        var identities: [String: VersionIdentity] = [:]
        var checksum = ""
        for (index, (name, entities)) in zip(names, versions).enumerated() {
            let path = "Example.xcdatamodeld/\(name).xcdatamodel/contents"
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
            let parsed = ModelContentsParser().parse(Data(text.utf8), file: path, version: name)
            modelVersions.append(ModelVersion(name: name, path: path, model: parsed.model))
            if !sameChecksum.contains(index) { checksum = "sum-\(name)" }
            identities[name] = VersionIdentity(checksum: checksum)
        }
        let bundle = ModelBundle(name: "Example", path: "Example.xcdatamodeld", versions: modelVersions, currentVersion: names.last)
        let known = VersionIdentities(byVersion: identities, source: "example")
        guard let stages else {
            let plan = StageSynthesis(bundle: bundle, order: names, identities: known, location: SourceLocation(file: "chain.json")).plan()
            return (plan.findings, plan)
        }
        let runtime = stages.map { stage in
            RuntimeStage(kind: stage.first == "lightweight" ? .lightweight : .custom,
                         keys: stage.dropFirst().map { identities[$0]?.checksum ?? $0 }, hasHandlers: stage.first == "custom")
        }
        let locations = stages.indices.map { SourceLocation(file: "stages.json", line: $0 + 2, column: 3) }
        return (StageListAudit.run(runtime, locations: locations, file: "stages.json",
                                   input: StageListAudit.Input(order: names, identities: known, bundle: bundle)).findings, nil)
    }
}

/// The examples of each staged-migration code.
public enum StageExamples {
    /// Codes with no firing example yet, each with the reason (the rules catalogue tests skip
    /// only these).
    /// - CP511 (a staged jump drops data that stepping keeps): its example was a rename whose
    ///   identifiers chained step by step, but under Core Data's exact key matching (reference
    ///   §4.1) a step keeps a property only when both sides share its key, so an inferred jump
    ///   keeps it too. It can still fire where a step keeps data through a mapping model the
    ///   jump cannot use; stage examples cannot express mapping models yet.
    public static let withoutFiringExample: Set<DiagnosticCode> = [.stageJumpDropsData]

    static let title = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let titleBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    static let untitled = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    static let numericTitle = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#
    static let heading = #"<entity name="Note"><attribute name="heading" optional="YES" attributeType="String" elementID="title"/></entity>"#
    static let caption = #"<entity name="Note"><attribute name="caption" optional="YES" attributeType="String" elementID="heading"/></entity>"#
    static let three = [title, titleBody, titleBody + "\n" + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#]

    public static func examples(for code: DiagnosticCode) -> [StageExample] {
        switch code {
        case .duplicateChecksumInStage: [
            StageExample("V2 twice in the lightweight stage", versions: three, stages: [["lightweight", "V1", "V2", "V2", "V3"]], expected: 1),
            StageExample("each checksum once", versions: three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ]
        case .checksumAcrossStages: [
            StageExample("V2 ends a lightweight stage and starts a custom one", versions: three,
                         stages: [["lightweight", "V1", "V2"], ["custom", "V2", "V3"]], expected: 1),
            StageExample("the lightweight stage stops before the custom stage's current model", versions: three,
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ]
        case .equalCustomEndpoints: [
            StageExample("V2 and V3 share a checksum and a custom stage joins them", versions: three, sameChecksum: [2],
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 1),
            StageExample("different checksums", versions: three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ]
        case .appModelNotStaged: [
            StageExample("the new version V3 was not added to the stages", versions: three, stages: [["lightweight", "V1", "V2"]], expected: 1),
            StageExample("V3 added", versions: three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ]
        case .versionNotStaged: [
            StageExample("V1 was dropped from the stages", versions: three, stages: [["lightweight", "V2", "V3"]], expected: 1),
            StageExample("every shipped version listed", versions: three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ]
        case .staleChecksum: [
            StageExample("a checksum copied before V2 was edited", versions: three, stages: [["lightweight", "V1", "V2", "old-V2-checksum", "V3"]], expected: 1),
            StageExample("current checksums", versions: three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ]
        case .backwardStages: [
            StageExample("the stages are listed newest first", versions: three, stages: [["custom", "V2", "V3"], ["lightweight", "V1"]], expected: 1),
            StageExample("oldest first", versions: three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ]
        case .stagesEndOffAppModel: [
            StageExample("the last custom stage goes from V3 back to V2: stores end on V2, not the app model V3", versions: three,
                         stages: [["lightweight", "V1"], ["bridge", "V3", "V2"]], expected: 1),
            StageExample("the last stage ends on V3", versions: three, stages: [["lightweight", "V1"], ["bridge", "V2", "V3"]], expected: 0),
        ]
        case .handlerOffCurrentModel: [
            StageExample("the custom stage's current model is V3, but the stage before leaves stores at V2", versions: three,
                         stages: [["bridge", "V1", "V2"], ["custom", "V3", "V2"]], expected: 1),
            StageExample("the custom stage starts where the stage before ends", versions: three,
                         stages: [["bridge", "V1", "V2"], ["custom", "V2", "V3"]], expected: 0),
        ]
        case .stageJumpFails: [
            StageExample("'title' removed in V2, re-added as a number in V3: one lightweight stage jumps V1 → V3", versions: [titleBody, untitled, numericTitle],
                         stages: [["lightweight", "V1", "V2", "V3"]], expected: 1),
            StageExample("chainplan's plan forces stepping with a handler-less custom stage", versions: [titleBody, untitled, numericTitle], stages: nil, expected: 0),
        ]
        case .stageJumpDropsData: [
            StageExample("'title' renamed 'heading' (identifier 'title'), then 'caption' (identifier 'heading'): Core Data's step V2 → V3 drops it too (exact keys), so the jump loses nothing more",
                         versions: [title, heading, caption], stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
            StageExample("chainplan's plan steps through V2", versions: [title, heading, caption], stages: nil, expected: 0),
        ]
        case .identicalChecksums: [
            StageExample("V3 only changes what hashes ignore", versions: [title, titleBody, titleBody], sameChecksum: [2], stages: nil, expected: 1),
            StageExample("every version differs", versions: three, stages: nil, expected: 0),
        ]
        case .stageCycle: [
            StageExample("two custom stages migrate V2 → V3 and back", versions: three,
                         stages: [["lightweight", "V1"], ["custom", "V2", "V3"], ["custom", "V3", "V2"]], expected: 1),
            StageExample("one direction", versions: three, stages: [["lightweight", "V1"], ["custom", "V2", "V3"]], expected: 0),
        ]
        default: []
        }
    }
}
