import ChainPlanCore

extension DiagnosticCode {
    /// CP122 UnhashableModelVersion: a model version's Core Data version hashes cannot be computed.
    ///
    /// Raised for a version whose hashes fail (`VersionHashes.diagnostic`, below; the hash engine writes the reason).
    package static let unhashableModelVersion = DiagnosticCode(
        "CP122", name: "UnhashableModelVersion", severity: .warning,
        summary: "A model version's Core Data version hashes cannot be computed",
        help: "Core Data decides whether a store needs migrating, which version a store is at and which mapping model fits by entity version hashes. chainplan computes them exactly from `contents`, but not for a legacy Xcode 3 version (binary `elements`, no `contents`) or a model Core Data could not compile either (an attribute type chainplan does not know, a missing or cyclic parent entity). Steps touching such a version fall back to comparing fields. Re-save the version in a current Xcode, or fix the model.",
        examples: [
            .project("V2 gives 'title' a type Core Data does not have, so its version hashes cannot be computed", files: RuleExampleFixtures.project([RuleExampleFixtures.note,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Money"/></entity>"#]), expected: 1),
            .project("every attribute type is one of Core Data's", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

extension VersionHashes {
    /// The finding for a version without hashes, nil when it has them or is legacy (CP112 says
    /// so already: one cause, one finding).
    package var diagnostic: Diagnostic? {
        guard let failure, !isLegacy else { return nil }
        return Diagnostic(.unhashableModelVersion, failure.message, at: SourceLocation(file: path), versions: [version])
    }
}
