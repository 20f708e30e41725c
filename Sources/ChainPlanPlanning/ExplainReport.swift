import ChainPlanCore
import ChainPlanInference
/// The document `chainplan explain` renders: the inferred mapping between two versions,
/// change by change, with verdicts and the rule basis.
///
/// Printed as JSON in the envelope every document shares (`schemaVersion`, `tool`).
public struct ExplainReport: Sendable, Hashable, Codable {
    public var bundle: String
    public var from: String
    public var to: String
    public var migration: MigrationKind
    public var inferable: Bool?
    public var losesData: Bool?
    /// Like a classified step of the report, always present in JSON: the mapping model that
    /// covers the pair, or `null`.
    @ExplicitNull public var mappingModel: StepMappingModel?
    public var entityMappings: [InferredEntityMapping]
    public var changes: [ModelChange]
    /// The checks that decide the step on a real store ("could fail validation"); nil when none.
    public var validation: [ValidationCheck]?
    public var diagnostics: [Diagnostic]
    /// What the step does to a SQLite store's tables (null when no migration runs or it fails).
    @ExplicitNull public var sqlite: SQLiteWork?

    public init(bundle: String, from: String, to: String, classification: StepClassification,
                mapping: InferredMapping?, diagnostics: [Diagnostic]) {
        self.bundle = bundle
        self.from = from
        self.to = to
        self.migration = classification.migration
        self.inferable = classification.inferable
        self.losesData = classification.losesData
        self.mappingModel = classification.mappingModel
        self.entityMappings = mapping?.entityMappings ?? []
        self.changes = classification.changes
        self.validation = classification.validation
        self.diagnostics = diagnostics
    }

    private enum CodingKeys: String, CodingKey {
        case bundle, from, to, migration, inferable, losesData, mappingModel, validation, entityMappings, changes, diagnostics, sqlite
    }

    /// The verdict in one line, e.g. `lightweight: Core Data infers the mapping (1 change drops data)`.
    public var verdict: String {
        switch migration {
        case .none:
            return "none: the versions are hash-equivalent, Core Data runs no migration"
        case .unknown:
            return "unknown: a version's model could not be read"
        case .lightweight:
            let lossy = changes.filter { $0.verdict == .dataLoss }.count
            let checks = validation?.count ?? 0
            return "lightweight: Core Data infers the mapping" + (lossy > 0 ? " (\(lossy) \(lossy == 1 ? "change drops" : "changes drop") data)" : "")
                + (checks > 0 ? ", flagged \"could fail validation\": the store's rows decide (\(checks) check\(checks == 1 ? "" : "s"))" : "")
        case .heavyweight where mappingModel != nil:
            return "heavyweight: the mapping model '\(mappingModel!.path)' is used"
                + (inferable == true ? " (Core Data could also infer this step)" : "")
        case .heavyweight:
            let blocking = changes.filter { $0.verdict == .blocksInference }.count
            return "heavyweight: not inferable (\(blocking) blocking change\(blocking == 1 ? "" : "s")) and no mapping model: migration fails at runtime"
        }
    }
}
