import SwiftData

enum TripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self] }
    static var stages: [MigrationStage] { [mergeDuplicateNames, addStartIndex] }

    /// Merges trips that share a name before the unique constraint applies.
    static let mergeDuplicateNames = MigrationStage.custom(
        fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
        willMigrate: { context in
            let trips = try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>())
            var seen: Set<String> = []
            for trip in trips where !seen.insert(trip.name).inserted { context.delete(trip) }
            try context.save()
        },
        didMigrate: nil)

    static let addStartIndex = MigrationStage.lightweight(fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self)
}
