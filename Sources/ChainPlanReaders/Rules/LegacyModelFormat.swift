import ChainPlanCore

extension DiagnosticCode {
    /// CP112 LegacyModelFormat: a model version uses the pre-Xcode-4 binary format.
    ///
    /// Raised when a bundle is read, for an Xcode 3 version (`legacyModelFormat`, below).
    package static let legacyModelFormat = DiagnosticCode(
        "CP112", name: "LegacyModelFormat", severity: .warning,
        summary: "A model version uses the pre-Xcode-4 binary format",
        help: "The version folder holds binary `elements`/`layout` files and no `contents` XML. chainplan decodes the `elements` archive when it can (its findings then have no line numbers); when it cannot, steps touching the version cannot be classified. Core Data's version hashes cannot be computed exactly for such a version (`chainplan hash` says so), so steps touching it are compared field by field. Open and save the model in a current Xcode to convert it.",
        examples: [
            .project("a version saved in the pre-Xcode-4 binary format", files: [
                RuleExampleFixtures.spec(["V1", "V2"]), RuleExample.File("Model.xcdatamodeld/V1.xcdatamodel/elements", "(binary keyed archive)"),
                RuleExampleFixtures.version("V2", RuleExampleFixtures.noteWithBody), RuleExampleFixtures.current("V2"),
            ], expected: 1),
            .project("every version has 'contents'", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension Diagnostic {
    /// The finding for the version `name` in the binary format (`decoded`: its `elements`
    /// archive could be read).
    static func legacyModelFormat(_ name: String, decoded: Bool, at location: SourceLocation) -> Diagnostic {
        let how = decoded
            ? "; chainplan decoded its binary 'elements' archive, but findings cannot point at lines until it is saved by a current Xcode"
            : " and cannot be read"
        return Diagnostic(.legacyModelFormat, "version '\(name)' uses the pre-Xcode-4 binary format ('elements'/'layout', no 'contents')\(how)",
                          at: location, versions: [name])
    }
}
