import ChainPlanCore

extension DiagnosticCode {
    /// CP301 UnknownStoreVersion: no model version matches the store.
    ///
    /// Raised when a store is identified (`StoreIdentification`, `StoreHashIdentification`), for one of the cases below.
    package static let unknownStoreVersion = DiagnosticCode(
        "CP301", name: "UnknownStoreVersion", severity: .error, unusableInput: true,
        summary: "No model version matches the store",
        help: "Neither hashes, identifiers nor structure identify the store's model version. The closest version and the differences are named.",
        examples: [
            .project("the store's tables belong to no version", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]),
                         store: .fixture("V1", rows: 3, sql: ["DROP TABLE ZNOTE", "DELETE FROM Z_PRIMARYKEY", "DELETE FROM Z_METADATA",
                                                              #"CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOTAL FLOAT)"#]),
                         expected: 1),
            .project("a store written for V1", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ])
}

/// How a store's version is unknown, or known with a caveat (the caveats are notes).
enum StoreVersionProblem {
    /// No version matches: `reasons` say what was compared; `nearest` is the closest version.
    case noMatch(reasons: [String], nearest: String?)
    /// The entity hashes of compiled versions the bundle does not contain.
    case compiledOnly([String])
    /// Entity hashes that match no version of the compiled model at `path`.
    case matchesNoCompiledVersion(path: String)
    /// The identifiers of `named`, but the structure of `version`.
    case identifierDisagrees(named: [String], version: String)
    /// Identifiers no version has; the structure of `version`.
    case unknownIdentifiers([String], version: String)
    /// Written with a merged model: every entity hash of `version` and `others` entities of other models.
    case mergedModel(version: String, others: Int)
}

extension Diagnostic {
    /// The finding for the store shown as `store`.
    static func unknownStoreVersion(_ store: String, _ problem: StoreVersionProblem, at location: SourceLocation) -> Diagnostic {
        switch problem {
        case let .noMatch(reasons, nearest):
            return Diagnostic(.unknownStoreVersion, "no model version matches store '\(store)': " + reasons.joined(separator: "; "),
                              at: location, versions: nearest.map { [$0] } ?? [])
        case .compiledOnly(let versions):
            return Diagnostic(.unknownStoreVersion, severity: .note,
                              "store '\(store)' has the entity hashes of compiled version \(versions.quotedList), which the bundle does not contain",
                              at: location, versions: versions)
        case .matchesNoCompiledVersion(let path):
            return Diagnostic(.unknownStoreVersion, severity: .note,
                              "store '\(store)' has entity hashes that match no version of compiled model '\(path)'", at: location)
        case let .identifierDisagrees(named, version):
            return Diagnostic(.unknownStoreVersion, severity: .note,
                              "store '\(store)' names the model version identifier of \(named.quotedList), but its structure matches '\(version)'",
                              at: location, versions: [version])
        case let .unknownIdentifiers(identifiers, version):
            return Diagnostic(.unknownStoreVersion, severity: .note,
                              "store '\(store)' names model version identifier \(identifiers.quotedList), which no version in the bundle has; its structure matches '\(version)'",
                              at: location, versions: [version])
        case let .mergedModel(version, others):
            return Diagnostic(.unknownStoreVersion, severity: .note,
                              "store '\(store)' was written with a merged model: it holds every entity hash of '\(version)' and \(others) entities of other models",
                              at: location, versions: [version])
        }
    }
}
