import SwiftData

// Two versions of a trip planner. The models live in extensions in Models.swift; the current
// names are typealiases to the newest version.
enum TripsSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }
}

enum TripsSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] {
        [Trip.self, Stop.self]
    }
}

enum TripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self, TripsSchemaV2.self] }
    static var stages: [MigrationStage] { [v1ToV2] }
    static let v1ToV2 = MigrationStage.custom(fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
                                              willMigrate: nil, didMigrate: { _ in })
}

typealias Trip = CurrentTrip
typealias CurrentTrip = TripsSchemaV2.Trip
