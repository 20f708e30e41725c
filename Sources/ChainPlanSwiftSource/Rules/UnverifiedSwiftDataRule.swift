import ChainPlanCore

extension DiagnosticCode {
    /// CP611 UnverifiedSwiftDataRule: an answer rests on a SwiftData rule the reference leaves open.
    ///
    /// Raised by the SwiftData chain (a schema whose hashes rest on an [open] mapping rule) and by
    /// `SwiftDataPlanCheck` (a plan translated on an [open] stage rule).
    package static let unverifiedSwiftDataRule = DiagnosticCode(
        "CP611", name: "UnverifiedSwiftDataRule", severity: .note,
        summary: "An answer rests on a SwiftData rule that is not verified yet",
        help: "chainplan maps SwiftData to Core Data by what decompiled SwiftData does and Apple-written hashes confirm. Where that evidence is missing (implicit inverses between more than two candidates, composite layouts, how `.lightweight` stages list the schemas between their ends, …), the answer is chainplan's best reading and is marked unverified, naming each cause. Confirm it on a Mac (`NSManagedObjectModel.makeManagedObjectModel(for:)`) or with a store the app wrote.",
        examples: [
            .project("a to-many ↔ to-many implicit pair", files: [
                RuleExample.File("Models.swift", "import SwiftData\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Note.self] }\n    @Model final class Tag {\n        var name: String = \"\"\n        var notes: [Note] = []\n    }\n    @Model final class Note {\n        var title: String = \"\"\n        var tags: [Tag] = []\n    }\n}\n"),
            ], input: "Models.swift", expected: 1),
            .project("attributes only", files: [
                RuleExample.File("Models.swift", "import SwiftData\nenum V1: VersionedSchema {\n    static let versionIdentifier = Schema.Version(1, 0, 0)\n    static var models: [any PersistentModel.Type] { [Note.self] }\n    @Model final class Note {\n        var title: String = \"\"\n    }\n}\n"),
            ], input: "Models.swift", expected: 0),
        ])
}

extension Diagnostic {
    /// CP611: what rests on which open rule.
    package static func unverifiedSwiftDataRule(_ message: String, at location: SourceLocation, versions: [String]) -> Diagnostic {
        Diagnostic(.unverifiedSwiftDataRule, message, at: location, versions: versions)
    }
}
