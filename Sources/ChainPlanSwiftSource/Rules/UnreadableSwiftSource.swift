import ChainPlanCore

extension DiagnosticCode {
    /// CP601 UnreadableSwiftSource: a Swift file or folder cannot be read or does not parse.
    ///
    /// Raised by the SwiftData reader (`SwiftDataReader.read`) where reading or parsing fails, with the reason.
    package static let unreadableSwiftSource = DiagnosticCode(
        "CP601", name: "UnreadableSwiftSource", severity: .error, unusableInput: true,
        summary: "A Swift source file or folder cannot be read or does not parse",
        help: "The path is missing, is not a Swift file or a folder, is over a size limit (4 MiB a file, 5000 files, 64 MiB in all), is not UTF-8, nests deeper than the parser accepts, or has a syntax error (an unterminated declaration, say). The compiler would not build it either, so no model is read from it; fix the file or name another path.",
        examples: [
            .swift("a class whose body is never closed", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Trip {\n    var name: String\n"),
            ], expected: 1),
            .swift("a complete model", files: [
                RuleExample.File("Models.swift", "import SwiftData\n@Model final class Trip {\n    var name: String = \"\"\n}\nlet container = try ModelContainer(for: Trip.self)\n"),
            ], expected: 0),
        ])
}

extension Diagnostic {
    /// CP601 for `path`: why it cannot be read or parsed.
    package static func unreadableSwiftSource(_ reason: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.unreadableSwiftSource, reason, at: location)
    }
}
