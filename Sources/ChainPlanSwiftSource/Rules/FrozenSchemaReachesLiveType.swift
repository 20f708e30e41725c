import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP606 FrozenSchemaReachesLiveType: an older schema's graph holds a class, or a `.codable` payload type, declared outside it.
    ///
    /// Raised by the SwiftData reader (`FrozenSchemaCheck`, below) for every schema that a newer one follows.
    package static let frozenSchemaReachesLiveType = DiagnosticCode(
        "CP606", name: "FrozenSchemaReachesLiveType", severity: .warning,
        summary: "An older schema reaches a model class or a payload type declared outside it",
        help: "A shipped `VersionedSchema` must describe exactly what that release stored: SwiftData checks a store against its checksum. When its `models` list, or a relationship of one of its classes, reaches a class declared outside the schema that a newer schema also uses (a top-level live class, another version's copy, or one behind a typealias), the old schema changes whenever that class does, and stores made by the release it describes fail with 134504 \"Cannot use staged migration with an unknown model version.\" Declare a frozen copy of each class inside the schema (`enum SchemaV1 { @Model final class Trip … }`) and point its relationships at those copies. The same holds for the type an `@Attribute(.codable)` property stores: SwiftData keeps the payload opaquely, so no checksum moves when a shared payload type changes, and the values an older release stored must still decode with the new shape; a copy inside the schema records the shape that release wrote.",
        examples: [
            .swift("V1's Trip reaches the live Place", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Place {\n    var name: String = \"\"\n}\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self] }\n    @Model final class Trip {\n        var place: Place?\n    }\n}\nenum V2: VersionedSchema {\n    static let versionIdentifier = Schema.Version(2, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self, Place.self] }\n    @Model final class Trip {\n        var place: Place?\n        var name: String?\n    }\n}\n"),
            ], expected: 1),
            .swift("V1 stores the live Settings as an @Attribute(.codable) payload that V2 also stores", files: [
                RuleExample.File("Models.swift", "import SwiftData\nstruct Settings: Codable {\n    var theme: String\n}\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self] }\n    @Model final class Trip {\n        @Attribute(.codable) var settings: Settings?\n    }\n}\nenum V2: VersionedSchema {\n    static let versionIdentifier = Schema.Version(2, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self] }\n    @Model final class Trip {\n        @Attribute(.codable) var settings: Settings?\n        var name: String?\n    }\n}\n"),
            ], expected: 1),
            .swift("V1 holds its own copy of Place; the newest schema may use live classes", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Place {\n    var name: String = \"\"\n}\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self] }\n    @Model final class Trip {\n        var place: Place?\n    }\n    @Model final class Place {\n        var name: String = \"\"\n    }\n}\nenum V2: VersionedSchema {\n    static let versionIdentifier = Schema.Version(2, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self, Place.self] }\n    @Model final class Trip {\n        var place: Place?\n        var name: String?\n    }\n}\n"),
            ], expected: 0),
        ])
}

/// CP606: every schema but the newest (by `versionIdentifier`) is frozen. A class in its graph
/// that is declared outside it and that a newer schema's graph also holds (a live class, or
/// another version's copy) changes with that newer schema. A class outside it that no newer
/// schema uses (FreezeRay's `DataV1.User`, a frozen copy in a namespace of its own) is frozen
/// with it. The same for the types an `@Attribute(.codable)` payload is read from: no checksum
/// sees them, so a change shows only against a revision (CP613 with `--against`). One finding
/// per schema, naming each such type and how the schema reaches it.
enum FrozenSchemaCheck {
    static func findings(_ versions: [SwiftSchemaVersion]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for version in versions {
            guard let identifier = version.identifier else { continue }
            let newer = versions.filter { other in other.identifier.map { VersionOrder.areInIncreasingOrder(identifier, $0) } ?? false }
            guard !newer.isEmpty else { continue }
            // Each class, and each payload type, declared outside the schema, with the newer schemas using it.
            let outside = version.types.compactMap { type -> (type: String, users: [SwiftSchemaVersion])? in
                let users = newer.filter { $0.types.contains(type) }
                return type.hasPrefix(version.name + ".") || users.isEmpty ? nil : (type, users)
            }
            var payloads: [(type: String, payload: CodablePayload, users: [SwiftSchemaVersion])] = []
            for payload in version.codablePayloads {
                for type in payload.declaredTypes where !type.hasPrefix(version.name + ".") && !payloads.contains(where: { $0.type == type }) {
                    let users = newer.filter { $0.codablePayloads.contains { $0.declaredTypes.contains(type) } }
                    if !users.isEmpty { payloads.append((type, payload, users)) }
                }
            }
            guard !outside.isEmpty || !payloads.isEmpty else { continue }
            var parts: [String] = []
            if !outside.isEmpty {
                let paths = outside.map { "'\($0.type)' (\(path(to: $0.type, in: version)); also in \(names($0.users)))" }
                parts.append("it reaches \(outside.count == 1 ? "a class" : "classes") declared outside it that a newer schema also uses: "
                             + paths.abbreviated.joined(separator: ", ")
                             + "; when \(outside.count == 1 ? "it changes" : "they change"), this schema's checksum changes and its users' stores fail with 134504")
            }
            if !payloads.isEmpty {
                let paths = payloads.map { "'\($0.type)' (the payload of '\($0.payload.entity).\($0.payload.property)'; also in \(names($0.users)))" }
                parts.append("its @Attribute(.codable) \(payloads.count == 1 ? "payload is" : "payloads are") read from \(payloads.count == 1 ? "a type" : "types") declared outside it that a newer schema also uses: "
                             + paths.abbreviated.joined(separator: ", ")
                             + "; when \(payloads.count == 1 ? "it changes" : "they change"), no checksum moves and the values its users stored must still decode "
                             + "(chainplan sees the change only against a revision, CP613 with --against)")
            }
            let firstReach = outside.lazy.compactMap { version.reachedThrough[$0.type]?.location }.first ?? payloads.first?.payload.location
            findings.append(Diagnostic(.frozenSchemaReachesLiveType, "schema '\(version.name)' (\(identifier)) is not frozen: " + parts.joined(separator: "; "),
                                       at: firstReach ?? version.location ?? SourceLocation(file: ""), versions: [version.name]))
        }
        return findings
    }

    /// `'V2', 'V3'`, abbreviated past a few.
    private static func names(_ versions: [SwiftSchemaVersion]) -> String {
        versions.map { "'\($0.name)'" }.abbreviated.joined(separator: ", ")
    }

    /// How `type` enters `version`'s graph: listed in `models`, or `A.b → B.c → type`.
    static func path(to type: String, in version: SwiftSchemaVersion) -> String {
        var steps: [String] = []
        var current = type
        var guardCount = 0
        while let reach = version.reachedThrough[current], guardCount < version.types.count {
            steps.insert(reach.relationship.isEmpty ? "\(reach.from)'s superclass" : "\(reach.from).\(reach.relationship)", at: 0)
            current = reach.from
            guardCount += 1
        }
        return steps.isEmpty ? "listed in its models" : "through " + steps.joined(separator: " → ")
    }
}
