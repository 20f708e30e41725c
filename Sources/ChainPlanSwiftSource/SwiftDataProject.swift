import ChainPlanCore
import ChainPlanReaders

/// What the SwiftData reader found in a Swift file or folder: each schema version as a Core
/// Data object model, the migration plans, and every finding.
///
/// Plain values only. A version whose model cannot be built without a guess carries a
/// `failure` instead of a model; a model that rests on a rule the reference marks [open]
/// carries `unverified` causes, which the hash output prints.
package struct SwiftDataProject: Sendable, Hashable {
    /// Every schema version, in `versionIdentifier` order, then by name.
    package var versions: [SwiftSchemaVersion]
    /// Every `SchemaMigrationPlan`, by name.
    package var plans: [SwiftMigrationPlan]
    /// Findings, sorted.
    package var diagnostics: [Diagnostic]
    /// Every `ModelContainer(for:…, migrationPlan:)` that names a plan, in source order.
    package var containers: [SwiftContainer] = []

    package init(versions: [SwiftSchemaVersion], plans: [SwiftMigrationPlan], diagnostics: [Diagnostic]) {
        self.versions = versions
        self.plans = plans
        self.diagnostics = diagnostics
    }
}

/// One schema version: a `VersionedSchema` type, or an app's one unversioned schema.
package struct SwiftSchemaVersion: Sendable, Hashable {
    /// The schema's type name as written at its declaration, qualified by the types around it
    /// (`AppSchemaV1`, `Outer.SchemaV2`); `ModelContainer` for an unversioned app.
    package var name: String
    /// `versionIdentifier` as `major.minor.patch`, nil when the reader could not read it.
    package var identifier: String?
    /// The Core Data model SwiftData builds for it, nil when it cannot be built without a guess.
    package var model: ObjectModel?
    /// Why no model could be built (with `model` nil).
    package var failure: String?
    /// Each cause that makes some hash of this version rest on an [open] rule, sorted.
    package var unverified: [String]
    /// Where the schema is declared.
    package var location: SourceLocation?
    /// The `@Model` classes its `models` lists (qualified names), in order.
    package var roots: [String] = []
    /// Every `@Model` class its graph holds: the roots and what they reach, in breadth-first order.
    package var types: [String] = []
    /// The files that declare its classes, in the order of `types` (each once).
    package var modelFiles: [String] = []
    /// How each class that is not a root was reached: the class and relationship that lead to it.
    package var reachedThrough: [String: Reach] = [:]
    /// The payloads of its classes' `@Attribute(.codable)` properties, which its model does not hold.
    package var codablePayloads: [CodablePayload] = []

    /// A relationship that pulls a class into a schema's graph.
    package struct Reach: Sendable, Hashable {
        /// The class declaring the relationship (qualified), and the relationship's name (empty
        /// when the class is `from`'s superclass).
        package var from: String
        package var relationship: String
        /// Where the relationship is declared.
        package var location: SourceLocation?
    }

    package init(name: String, identifier: String?, model: ObjectModel?, failure: String?, unverified: [String],
                 location: SourceLocation?) {
        self.name = name
        self.identifier = identifier
        self.model = model
        self.failure = failure
        self.unverified = unverified
        self.location = location
    }
}

/// A container built with a migration plan: `ModelContainer(for: Schema(versionedSchema: V3.self),
/// migrationPlan: Plan.self)`, or `ModelContainer(for: Trip.self, …, migrationPlan: Plan.self)`
/// (also `.modelContainer(for:…, migrationPlan:)`). Its model is the coordinator's model, which
/// staged migration requires to be the plan's last schema (reference swiftdata §8 item 7).
package struct SwiftContainer: Sendable, Hashable {
    /// The plan's qualified type name.
    package var plan: String
    /// The `VersionedSchema` named by `Schema(versionedSchema:)`, when so written.
    package var schema: String?
    /// The model its listed classes build, when it lists classes (nil when they cannot be read).
    package var model: ObjectModel?
    /// The listed classes (qualified), when it lists classes.
    package var models: [String]
    /// Where the call is written.
    package var location: SourceLocation?

    package init(plan: String, schema: String?, model: ObjectModel?, models: [String], location: SourceLocation?) {
        self.plan = plan
        self.schema = schema
        self.model = model
        self.models = models
        self.location = location
    }
}

/// A `SchemaMigrationPlan`: its `schemas` and `stages`, as written.
package struct SwiftMigrationPlan: Sendable, Hashable {
    /// One `MigrationStage`.
    package struct Stage: Sendable, Hashable {
        /// `.lightweight(…)` or `.custom(…)`.
        package enum Kind: String, Sendable, Hashable {
            case lightweight, custom
        }

        /// Which stage it is.
        package var kind: Kind
        /// The schema type names of `fromVersion` and `toVersion` (as `SwiftSchemaVersion.name`).
        package var from: String
        package var to: String
        /// For a `.custom` stage: whether `willMigrate` / `didMigrate` are given (not `nil`).
        package var hasWillMigrate: Bool
        package var hasDidMigrate: Bool
        /// Where the stage's call is written.
        package var location: SourceLocation?

        package init(kind: Kind, from: String, to: String, hasWillMigrate: Bool = false, hasDidMigrate: Bool = false,
                     location: SourceLocation?) {
            self.kind = kind
            self.from = from
            self.to = to
            self.hasWillMigrate = hasWillMigrate
            self.hasDidMigrate = hasDidMigrate
            self.location = location
        }
    }

    /// The plan's type name, qualified by the types around it.
    package var name: String
    /// The `schemas` entries, as schema type names, in order.
    package var schemas: [String]
    /// Where each `schemas` entry is written (parallel to `schemas`).
    package var schemaLocations: [SourceLocation?] = []
    /// The `stages` entries, in order (an entry that cannot be read is a finding instead).
    package var stages: [Stage]
    /// Where the plan is declared.
    package var location: SourceLocation?

    package init(name: String, schemas: [String], stages: [Stage], location: SourceLocation?) {
        self.name = name
        self.schemas = schemas
        self.stages = stages
        self.location = location
    }
}

/// An `@Attribute(.codable)` property's payload: SwiftData stores the value's Codable
/// representation, so the payload's shape is outside the model and its checksum.
package struct CodablePayload: Sendable, Hashable {
    /// The entity and the property.
    package var entity: String
    package var property: String
    /// The payload's shape: its type as Swift spells it, then its stored properties and cases
    /// (`name: Type`, `inner.name: Type`, `case name(…)`), in declaration order.
    package var elements: [String]
    /// The types the sources declare that the shape is read from (qualified), outermost first.
    package var declaredTypes: [String] = []
    /// Where the property is declared.
    package var location: SourceLocation?

    /// How the payload's shape changes from `old`'s (elements added and removed; their order
    /// does not matter to a keyed Codable representation), or nil when it does not.
    package func change(from old: CodablePayload) -> String? {
        let added = elements.filter { !old.elements.contains($0) }.map { "+ '\($0)'" }
        let removed = old.elements.filter { !elements.contains($0) }.map { "− '\($0)'" }
        guard !added.isEmpty || !removed.isEmpty else { return nil }
        return "'\(entity).\(property)' @Attribute(.codable) payload " + (added + removed).joined(separator: ", ")
    }
}
