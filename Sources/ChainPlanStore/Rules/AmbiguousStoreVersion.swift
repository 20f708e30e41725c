import ChainPlanCore

extension DiagnosticCode {
    /// CP302 AmbiguousStoreVersion: several model versions match the store equally.
    ///
    /// Raised when a store is identified (`StoreIdentification`, `StoreHashIdentification`), for one of the cases below.
    package static let ambiguousStoreVersion = DiagnosticCode(
        "CP302", name: "AmbiguousStoreVersion", severity: .warning,
        summary: "Several model versions match the store equally",
        help: "The evidence does not single out one version. Supply the compiled model (`--momd`) so the entity hashes decide.",
        examples: [
            .project("V1 and V2 are identical, so a V1 store matches both", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.note]), store: .fixture("V1", rows: 3), expected: 1),
            .project("V2 adds an attribute", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ])
}

/// How a store matches several model versions.
enum StoreAmbiguity {
    /// The entity hashes of several versions (`identical`: the bundle's own, equal to Core Data).
    case entityHashes([String], identical: Bool)
    /// The model version identifiers of several versions.
    case identifiers([String])
    /// The structure of several versions (no compiled model to decide by hashes).
    case structure([String])

    var versions: [String] {
        switch self {
        case .entityHashes(let versions, _), .identifiers(let versions), .structure(let versions): versions
        }
    }
}

extension Diagnostic {
    /// The finding for the store shown as `store`, which matches several versions.
    static func ambiguousStoreVersion(_ store: String, _ ambiguity: StoreAmbiguity, at location: SourceLocation) -> Diagnostic {
        let versions = ambiguity.versions
        let quoted = versions.quotedList
        let message = switch ambiguity {
        case .entityHashes(_, let identical):
            "store '\(store)' has the entity hashes of several model versions: \(quoted)" + (identical ? " (identical hashes: one version to Core Data)" : "")
        case .identifiers: "store '\(store)' names the identifiers of several model versions: \(quoted)"
        case .structure:
            "store '\(store)' matches several model versions with the same structure: \(quoted); supply the compiled model (--momd) to decide by entity hashes"
        }
        return Diagnostic(.ambiguousStoreVersion, message, at: location, versions: versions)
    }
}
