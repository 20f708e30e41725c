import Foundation
import SwiftData

/// 2.1: an index on the start date to sort trips faster. Nothing else changes.
enum TripsSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 1, 0)
    static var models: [any PersistentModel.Type] { [Trip.self, Stop.self] }

    @Model final class Trip {
        #Index<Trip>([\.start])
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

typealias Trip = TripsSchemaV3.Trip
typealias Stop = TripsSchemaV3.Stop
