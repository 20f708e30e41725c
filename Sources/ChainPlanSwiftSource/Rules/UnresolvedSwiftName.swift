import ChainPlanCore

extension DiagnosticCode {
    /// CP602 UnresolvedSwiftName: the reader cannot tell what a SwiftData declaration means without type-checking.
    ///
    /// Raised by the SwiftData reader where a name, a type or an argument cannot be read from the source alone.
    package static let unresolvedSwiftName = DiagnosticCode(
        "CP602", name: "UnresolvedSwiftName", severity: .warning,
        summary: "A SwiftData declaration cannot be read without type-checking",
        help: "chainplan reads SwiftData sources without building them, resolving names as Swift does within the files it is given. A type from another module, a `models` list computed by code, a non-literal `versionIdentifier`, `originalName:` or `hashModifier:`, an untyped property whose initializer is not a literal or a known initializer, or an `#if` around or inside a `@Model` that the stated build configuration cannot decide (`canImport` of the app's own packages, `hasFeature`; chainplan decides `#if` for an iOS release build, or the OS and `-D` conditions given with `--swift-os` and `--define`) cannot be read that way. A name qualified by the app's own module (`MyApp.Trip`) is read once the module is stated with `--module-name MyApp`. The version it affects prints no hashes (or its hashes are marked unverified); name every file that declares the types, or spell the value as a literal.",
        examples: [
            .swift("a property whose type comes from another module", files: [
                RuleExample.File("Models.swift", "import SwiftData\nimport MapKit\n@Model final class Place {\n    var coordinate: CLLocationCoordinate2D?\n}\nlet container = try ModelContainer(for: Place.self)\n"),
            ], expected: 1),
            .swift("every type is declared or built in", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Place {\n    var name: String?\n    var visited: Date?\n}\nlet container = try ModelContainer(for: Place.self)\n"),
            ], expected: 0),
        ])
}

extension Diagnostic {
    /// CP602: what is unknown, at the declaration that names it.
    package static func unresolvedSwiftName(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.unresolvedSwiftName, message, at: location)
    }
}
