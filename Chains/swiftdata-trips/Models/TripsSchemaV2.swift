import Foundation
import SwiftData

/// 2.0: trip names become unique (duplicates are merged by a custom stage) and trips get stops.
enum TripsSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self, Stop.self] }

    @Model final class Trip {
        @Attribute(.unique) var name: String = ""
        var start: Date?
        var end: Date?
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
        init(name: String) { self.name = name }
    }

    @Model final class Stop {
        var place: String = ""
        var trip: Trip?
        init(place: String) { self.place = place }
    }
}
