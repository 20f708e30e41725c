import ChainPlanCore

extension DiagnosticCode {
    /// CP603 InvalidSwiftDataModel: a model SwiftData refuses at run time (a fatal error when the schema is built).
    ///
    /// Raised by the SwiftData reader while it maps a `@Model` class to a Core Data entity (reference §2, §3, §8 item 12).
    package static let invalidSwiftDataModel = DiagnosticCode(
        "CP603", name: "InvalidSwiftDataModel", severity: .error,
        summary: "A SwiftData model that SwiftData refuses when it builds the schema",
        help: "SwiftData stops the app with a fatal error when it builds a schema with a property named `description`, an array of a type that is not Codable, a class-typed property inside a persisted struct, `.unique` on a to-many relationship, two model types with the same simple name in one schema (entity names are the simple type names), or an `inverse:` that names no relationship back. Rename or retype the property.",
        examples: [
            .swift("a property named description", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Trip {\n    var description: String = \"\"\n}\nlet container = try ModelContainer(for: Trip.self)\n"),
            ], expected: 1),
            .swift("the property is named summary", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Trip {\n    var summary: String = \"\"\n}\nlet container = try ModelContainer(for: Trip.self)\n"),
            ], expected: 0),
        ])
}

extension Diagnostic {
    /// CP603: what SwiftData refuses, at the declaration.
    package static func invalidSwiftDataModel(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.invalidSwiftDataModel, message, at: location)
    }
}
