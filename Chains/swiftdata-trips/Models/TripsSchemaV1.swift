import Foundation
import SwiftData

/// The first release: trips with a name and a start date.
enum TripsSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String = ""
        var start: Date?
        init(name: String) { self.name = name }
    }
}
