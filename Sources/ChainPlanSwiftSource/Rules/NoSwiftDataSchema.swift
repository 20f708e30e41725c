import ChainPlanCore

extension DiagnosticCode {
    /// CP604 NoSwiftDataSchema: the Swift sources declare no schema chainplan can read.
    ///
    /// Raised by the SwiftData reader (`SwiftDataReader.read`) when it finds no `VersionedSchema` and no `ModelContainer(for:)`.
    package static let noSwiftDataSchema = DiagnosticCode(
        "CP604", name: "NoSwiftDataSchema", severity: .error, unusableInput: true,
        summary: "The Swift sources declare no SwiftData schema",
        help: "chainplan reads a schema version from each `VersionedSchema`, or, in an app without one, the `@Model` classes that `ModelContainer(for:)` or `.modelContainer(for:)` names. The files given declare neither; name the folder that holds the schemas or the container.",
        examples: [
            .swift("a model that no schema or container names", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Trip {\n    var name: String = \"\"\n}\n"),
            ], expected: 1),
            .swift("a versioned schema lists it", files: [
                RuleExample.File("Models.swift", "import SwiftData\nenum SchemaV1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Trip.self] }\n    @Model final class Trip {\n        var name: String = \"\"\n    }\n}\n"),
            ], expected: 0),
        ])
}

extension Diagnostic {
    /// CP604 for the path given.
    package static func noSwiftDataSchema(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.noSwiftDataSchema, message, at: location)
    }
}
