import ChainPlanCore
import ChainPlanInference
/// The one document every command produces and every reporter renders.
///
/// Encoded as JSON it is chainplan's published, versioned output (`Schemas/report.schema.json`).
/// New fields are added as optional members so that version 1 consumers keep working.
public struct ChainReport: Sendable, Hashable, Codable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int = ChainReport.currentSchemaVersion
    public var tool: Tool = Tool()
    /// Display path of the spec (or of the bundle when the chain was inferred).
    public var spec: String
    public var model: ModelSummary?
    public var target: String?
    /// Every version: the chain's in order of first appearance, then bundle versions not in it.
    public var versions: [String]
    public var steps: [Step]
    public var paths: [Path]
    /// True when paths list only `next` and `length`, not every step (very large chains).
    public var pathsAbbreviated: Bool?
    public var diagnostics: [Diagnostic]
    public var summary: Summary

    public struct Tool: Sendable, Hashable, Codable {
        public var name = "chainplan"
        public var version = ChainPlanVersion.string
    }

    public struct ModelSummary: Sendable, Hashable, Codable {
        public var bundle: String
        public var currentVersion: String?
        public var versions: [String]
    }

    /// One step of the chain (an edge of the graph).
    public struct Step: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        /// `none`, `lightweight`, `heavyweight` or `unknown`; present once models are read.
        public var migration: MigrationKind?
        public var inferable: Bool?
        public var losesData: Bool?
        public var mappingModel: StepMappingModel?
        public var changes: [ModelChange]?
        /// What the step does to a SQLite store's tables (inferred or mapping-model steps).
        public var sqlite: SQLiteWork?
        /// The checks that decide an inferred step flagged "could fail validation" (absent when none).
        public var validation: [ValidationCheck]?

        public init(from: String, to: String, classification: StepClassification? = nil) {
            self.from = from
            self.to = to
            if let classification {
                migration = classification.migration
                inferable = classification.inferable
                losesData = classification.losesData
                mappingModel = classification.mappingModel
                changes = classification.changes
                validation = classification.validation
            }
        }

        private enum CodingKeys: String, CodingKey {
            case from, to, migration, inferable, losesData, mappingModel, validation, changes, sqlite
        }

        /// A classified step (one with `migration`) always has `mappingModel`: the matched mapping
        /// model, or `null` when none covers it. Unclassified steps (no models read) omit it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode([.from: from, .to: to])
            try container.encodeIfPresent([.migration: migration, .inferable: inferable, .losesData: losesData,
                                           .validation: validation, .changes: changes, .sqlite: sqlite])
            if migration != nil || mappingModel != nil {
                try container.encode([.mappingModel: mappingModel])
            }
        }
    }

    /// The path from one start version to the target.
    public struct Path: Sendable, Hashable, Codable {
        public var start: String
        /// The chain's target whenever it is known, reachable from `start` or not.
        public var target: String?
        public var reachable: Bool
        /// Number of steps (0 at the target); nil when unreachable.
        public var length: Int?
        /// The first version after `start`, when there is one.
        public var next: String?
        /// Every step in order; omitted when `pathsAbbreviated`.
        public var steps: [Step]?
        /// Why the target is not reached: `dead-end`, `cycle`, `no-target` or `not-in-chain`.
        public var problem: String?
        /// The dead-end version, or a member of the cycle, when unreachable.
        public var stopsAt: String?
        /// The direct jump from `start` to the target (when models are read).
        public var direct: DirectJump?
        /// Deferred work along the path (reference §7.3), when there is any to report.
        public var deferral: DeferredChain?
    }

    public struct Summary: Sendable, Hashable, Codable {
        public var errors: Int
        public var warnings: Int
        public var notes: Int
        /// `pass` when there is no error-severity finding, else `fail`.
        public var verdict: String
        /// Findings acknowledged by the spec's `accept` (counted here, not above); absent when none.
        public var accepted: Int?

        public init(diagnostics: [Diagnostic]) {
            let counted = diagnostics.filter { $0.accepted == nil }
            errors = counted.filter { $0.severity == .error }.count
            warnings = counted.filter { $0.severity == .warning }.count
            notes = counted.filter { $0.severity == .note }.count
            verdict = errors == 0 ? "pass" : "fail"
            let accepted = diagnostics.count - counted.count
            self.accepted = accepted == 0 ? nil : accepted
        }
    }
}

extension ChainReport {
    /// Diagnostics in history order and the summary recomputed: how every report is finished.
    package func resummarised() -> ChainReport {
        var copy = self
        copy.setFindings(diagnostics)
        return copy
    }
}
