import ChainPlanCore
import ChainPlanInference
/// A staged migration plan (`NSStagedMigrationManager`, iOS 17+): the stages in migration order,
/// the proof of Core Data's rules (reference §6.1) and what every shipped start version goes
/// through. A pure value: renderers turn it into text, JSON, Markdown, Swift or CoreStore code.
public struct StagePlan: Sendable, Hashable, Codable {
    public var stages: [MigrationStage]
    /// One per listed version, oldest first: what the runtime does with a store at it.
    public var starts: [StageRun]
    /// The app's (final) model: the bundle's current version, or the chain's target.
    public var appModel: String
    /// The model bundle's name (the `.momd` base name).
    public var modelName: String
    /// Where the checksums came from; nil when none were available (then `checksums` are empty).
    public var checksumSource: String?
    /// Versions listed once because their checksum (or, without checksums, their hashed model
    /// content) equals an earlier listed version's: version → the version listed in its place.
    public var merged: [MergedVersion]
    /// The §6.1 checks on this plan, and the planning problems (a step nothing can migrate).
    public var findings: [Diagnostic]
    /// Suggested decompositions of steps that lose data or can fail (expand → copy → contract);
    /// nil when none matches.
    public var decompositions: [Decomposition]? = nil

    /// Every version the plan lists, in order.
    public var listedVersions: [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for stage in stages { for version in stage.versions where seen.insert(version).inserted { out.append(version) } }
        return out
    }

    /// The checksum of a listed version, when known.
    public func checksum(of version: String) -> String? {
        for stage in stages { if let index = stage.versions.firstIndex(of: version), index < stage.checksums.count { return stage.checksums[index] } }
        return nil
    }
}

/// A version listed under another's checksum.
public struct MergedVersion: Sendable, Hashable, Codable {
    public var version: String
    public var listedAs: String
}

/// One stage of the plan.
public struct MigrationStage: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case lightweight
        case custom
    }

    public var kind: Kind
    /// Lightweight: the member versions; custom: `[currentModel, nextModel]`.
    public var versions: [String]
    /// The checksums of `versions`, in the same order; empty when no checksums are known.
    public var checksums: [String]
    /// Why the stage exists.
    public var reason: String
    /// The stage's `label`.
    public var label: String
    /// Custom stages: whether handlers do data work (false: a handler-less stage that only forces
    /// stepping).
    public var handlers: Bool = false
    /// Custom stages: the mapping model Core Data uses for the stage's jump, when one covers it.
    public var mappingModel: String? = nil
    /// Custom stages with handlers: the data the handlers move (entity, properties, why).
    public var work: [DataWork] = []
}

/// Data a custom stage's handlers move: the entity (at the current model), its attributes to read
/// in `willMigrate`, and the change that makes copying necessary.
public struct DataWork: Sendable, Hashable, Codable {
    public var entity: String
    /// The entity's name at the next model, when it survives.
    public var nextEntity: String?
    /// Attributes read at the current model.
    public var read: [String]
    /// Properties written at the next model.
    public var write: [String]
    public var detail: String
    /// Values copied into a new entity (the expand → copy → contract pattern); the handler is
    /// complete when set.
    public var copy: CopyIntoEntity? = nil
    /// Set when `write` lists mandatory attributes whose empty values the `willMigrate` handler
    /// fills at the current model: their Core Data types (`attributeType`), in `write`'s order.
    public var fillTypes: [String]? = nil
}

/// What the runtime does with a store at one version.
public struct StageRun: Sendable, Hashable, Codable {
    public struct Jump: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        /// The stage whose run executes the jump (0-based); nil for a plain automatic migration.
        public var stage: Int?
        /// `none`, `lightweight` (inferred), `heavyweight` (a mapping model), `fails` or `unknown`.
        public var migration: String
        public var mappingModel: String?
        /// Data this jump drops that stepping keeps (`Entity` or `Entity.property`).
        public var lostComparedToSteps: [String]
        /// An inferred jump flagged "could fail validation": the checks that decide it on a real
        /// store (absent when none).
        public var validation: [ValidationCheck]? = nil
    }

    public struct HandlerCall: Sendable, Hashable, Codable {
        /// The `NSCustomMigrationStage` handler called (its property's name).
        public enum Handler: String, Sendable, Hashable, Codable {
            case willMigrate, didMigrate
        }
        public var stage: Int
        public var handler: Handler
        /// The model the handler's container opens.
        public var model: String
    }

    public struct ExpectedError: Sendable, Hashable, Codable {
        /// NSCocoaErrorDomain code; 0 for an exception (`thrownBy`).
        public var code: Int
        public var reason: String
        /// The initializer that throws an Objective-C exception (uncatchable in Swift: the app
        /// crashes) when the stages cannot be built; nil for an NSError at load.
        public var thrownBy: String? = nil
    }

    public var version: String
    public var checksum: String?
    /// The stage the store is located in (0-based), nil when it runs nothing or is not found.
    public var locatedAt: Int?
    /// The stages that run, in order (0-based).
    public var stagesRun: [Int]
    public var jumps: [Jump]
    public var handlers: [HandlerCall]
    public var error: ExpectedError?
    /// The model the store ends on; nil after an error.
    public var endsOn: String?
    /// A sentence: "compatible: no stage runs", "one jump", ….
    public var summary: String
}
