import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanSwiftSource

/// CP606: an older schema whose graph holds a class declared outside it that a newer schema
/// also uses. Each case: V1's declarations (beside a top-level `Place` and a newer V2) and the
/// path the finding names, or nil for none.
@Suite("Frozen schemas")
struct FrozenSchemaTests {
    static func source(v1Models: String, v1Body: String, v2Models: String = "[Trip.self, Place.self]", extra: String = "") -> String {
        """
        import SwiftData
        @Model final class Place {
            var name: String = ""
        }
        enum V1: VersionedSchema {
            static let versionIdentifier = Schema.Version(1, 0, 0)
            static var models: [any PersistentModel.Type] { \(v1Models) }
        \(v1Body)
        }
        enum V2: VersionedSchema {
            static let versionIdentifier = Schema.Version(2, 0, 0)
            static var models: [any PersistentModel.Type] { \(v2Models) }
            @Model final class Trip {
                var place: Place?
                var name: String?
            }
        }
        \(extra)
        """
    }

    static let ownTrip = "    @Model final class Trip {\n        var name: String?\n    }"

    @Test(arguments: [
        ("a live class listed in models", source(v1Models: "[Trip.self, Place.self]", v1Body: ownTrip), "'Place' (listed in its models; also in 'V2')"),
        ("a live class reached through a relationship", source(v1Models: "[Trip.self]", v1Body: "    @Model final class Trip {\n        var place: Place?\n    }"),
         "'Place' (through V1.Trip.place; also in 'V2')"),
        ("another version's copy", source(v1Models: "[V2.Trip.self]", v1Body: ""), "'V2.Trip' (listed in its models; also in 'V2')"),
        ("a live class behind a typealias", source(v1Models: "[Trip.self, Spot.self]", v1Body: ownTrip, extra: "typealias Spot = Place"),
         "'Place' (listed in its models; also in 'V2')"),
        ("a frozen copy in a namespace of its own", source(v1Models: "[DataV1.Trip.self]", v1Body: "", extra: "enum DataV1 {\n    @Model final class Trip {\n        var name: String?\n    }\n}"), nil),
        ("its own copies", source(v1Models: "[Trip.self]", v1Body: ownTrip), nil),
    ] as [(String, String, String?)])
    func frozenSchemas(_ name: String, _ source: String, _ path: String?) {
        let findings = SwiftDataReader.read(files: [(path: "Models.swift", text: source)]).diagnostics.filter { $0.code == .frozenSchemaReachesLiveType }
        guard let path else {
            #expect(findings.isEmpty, "\(name): \(findings.map(\.message))")
            return
        }
        #expect(findings.count == 1, "\(name): \(findings.map(\.message))")
        #expect(findings.first?.message.contains(path) == true, "\(name): \(findings.map(\.message))")
        #expect(findings.first?.versions == ["V1"])
        #expect(findings.first?.location?.line != nil)
    }
}
