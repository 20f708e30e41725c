import Foundation
import SwiftData

extension TripsSchemaV1 {
    @Model final class Trip {
        @Attribute(.unique) var name: String
        var start: Date?
        var notes = ""

        init(name: String) { self.name = name }
    }
}

extension TripsSchemaV2 {
    @Model final class Trip {
        @Attribute(.unique) var name: String
        var start: Date?
        @Attribute(originalName: "notes") var summary = ""
        @Relationship(deleteRule: .cascade) var stops: [Stop] = []
        @Transient var isSelected = false
        var stopCount: Int { stops.count }

        init(name: String) { self.name = name }
    }

    @Model final class Stop {
        var place: String
        var arrival: Date?
        var trip: Trip?

        init(place: String) { self.place = place }
    }
}
