import ChainPlanCore
/// A string read from a spec, with where it was written.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// The syntax a spec was written in. JSON is read as the YAML subset it is, but more strictly:
/// a version name must be a JSON string.
public enum SpecSyntax: String, Sendable, Hashable, Codable {
    case json
    case yaml
}

/// A chain spec as written: every entry kept with its location, duplicates included,
/// so that checks can report each one. Interpreting it as a graph is `ChainGraph`'s job.
public struct ChainSpec: Sendable, Hashable {
    /// The CoreStore-compatible shapes of a chain.
    public enum Form: String, Sendable, Hashable, Codable {
        /// `null`, `[]` or `{}`: no progressive migration; every version goes straight to the target.
        case empty
        /// A single version name: `"V1"` (CoreStore's string literal form).
        case single
        /// `["V1", "V2", "V3"]`: V1→V2→V3.
        case array
        /// `{"V1": "V3", "V2": "V4"}`: each source to one destination.
        case tree
    }

    /// One `source: destination` entry of a version tree.
    public struct TreeEntry: Sendable, Hashable {
        public var source: Located<String>
        public var destination: Located<String>

        public init(source: Located<String>, destination: Located<String>) {
            self.source = source
            self.destination = destination
        }
    }

    /// One entry of `mappings`: an explicit mapping model for a step.
    public struct MappingEntry: Sendable, Hashable {
        public var from: String
        public var to: String
        /// The path as written (relative to the spec's folder).
        public var path: String
        /// Where the step key (`"From -> To"`) is written.
        public var location: SourceLocation
        /// Where the path is written (problems with the path point here).
        public var pathLocation: SourceLocation

        public init(from: String, to: String, path: String, location: SourceLocation, pathLocation: SourceLocation? = nil) {
            self.from = from
            self.to = to
            self.path = path
            self.location = location
            self.pathLocation = pathLocation ?? location
        }
    }

    /// One entry of `accept`: findings on a step acknowledged with a reason. Only a step whose
    /// versions are both in `chain.lock` can be accepted (a shipped step cannot be changed any more).
    public struct Acceptance: Sendable, Hashable {
        public var step: StepKey
        /// The codes accepted; empty accepts every finding on the step.
        public var codes: [DiagnosticCode]
        public var reason: String
        /// Where the step key is written.
        public var location: SourceLocation
    }

    /// Display path of the spec file.
    public var file: String
    public var syntax: SpecSyntax
    public var form: Form
    /// Array (and single) form: the names in order, duplicates kept.
    public var arrayEntries: [Located<String>]
    /// Tree form: the entries in file order, duplicate keys kept.
    public var treeEntries: [TreeEntry]
    /// Full form: `model`, as written.
    public var model: Located<String>?
    /// Full form: `swiftdata`, a Swift file or folder whose SwiftData schemas are the versions.
    public var swiftData: Located<String>?
    /// Full form: `plan`, the `SchemaMigrationPlan` to check (with `swiftdata`).
    public var migrationPlan: Located<String>?
    /// Full form: `target`.
    public var target: Located<String>?
    /// Full form: `mappings`.
    public var mappings: [MappingEntry]
    /// Full form: `stages`, the steps the user wants as custom migration stages (`"From -> To"`).
    public var customStages: [Located<StepKey>] = []
    /// Custom stages known to run no code before their migration (a SwiftData `.custom` stage
    /// whose `willMigrate` is nil); a spec's own stages may have any handlers.
    public var customStagesWithoutWillMigrate: Set<StepKey> = []
    /// Full form: `accept`, findings acknowledged on steps the lock protects.
    public var acceptances: [Acceptance] = []
    /// Full form: `deferredLightweightMigration` (nil when not written).
    public var deferredLightweightMigration: Bool?
    /// Where the chain itself starts (the root value, or the `chain` value).
    public var chainLocation: SourceLocation
    /// How the chain was guessed, for a bundle given without a spec (nil for a written spec).
    public var inferredOrder: InferredOrder?

    public init(
        file: String, syntax: SpecSyntax, form: Form,
        arrayEntries: [Located<String>] = [], treeEntries: [TreeEntry] = [],
        model: Located<String>? = nil, target: Located<String>? = nil,
        mappings: [MappingEntry] = [], chainLocation: SourceLocation
    ) {
        self.file = file
        self.syntax = syntax
        self.form = form
        self.arrayEntries = arrayEntries
        self.treeEntries = treeEntries
        self.model = model
        self.target = target
        self.mappings = mappings
        self.chainLocation = chainLocation
    }

    /// A spec that lists `versions` in order (used when a bundle is given instead of a spec).
    public static func inferred(versions: [String], file: String) -> ChainSpec {
        let location = SourceLocation(file: file)
        return ChainSpec(
            file: file, syntax: .json, form: versions.isEmpty ? .empty : .array,
            arrayEntries: versions.map { Located($0, at: location) },
            chainLocation: location
        )
    }

    /// The spec of a guessed chain: `order`'s versions, with how they were ordered.
    public static func inferred(_ order: InferredOrder, file: String) -> ChainSpec {
        var spec = inferred(versions: order.versions, file: file)
        spec.inferredOrder = order
        return spec
    }
}

extension ChainSpec {
    /// The steps the app runs as custom stages whose code runs before the migration: the spec's
    /// `stages` and `configured` (the rule configuration's), less the custom stages known to run
    /// nothing first.
    public func stagesRunningCodeFirst(configured: [StepKey] = []) -> Set<StepKey> {
        Set(customStages.map(\.value)).union(configured).subtracting(customStagesWithoutWillMigrate)
    }
}
