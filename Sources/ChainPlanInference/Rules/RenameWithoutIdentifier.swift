import ChainPlanCore

extension DiagnosticCode {
    /// CP202 RenameWithoutIdentifier: a likely rename has no renaming identifier.
    ///
    /// Raised in `LikelyEntityRename.swift`, `LikelyPropertyRename.swift`, `StageSynthesis.swift`.
    public static let renameWithoutIdentifier = DiagnosticCode(
        "CP202", name: "RenameWithoutIdentifier", severity: .warning,
        summary: "A likely rename has no renaming identifier",
        help: "An entity or property was removed and one of the same kind added in the same step, or an element keeps its name but its key (renaming identifier, else name) no longer equals the other version's. Core Data matches keys exactly and infers this as drop + add: the data is deleted. Set the renaming identifier (Xcode: Versioning > Renaming ID) to the old key the finding names.",
        examples: [
            .versions("an attribute renamed without a renaming identifier", versions: [
                #"<entity name="Note"><attribute name="fecha" optional="YES" attributeType="Date"/></entity>"#,
                #"<entity name="Note"><attribute name="momento" optional="YES" attributeType="Date"/></entity>"#,
            ], expected: 1),
            .versions("renamed with the old name as renaming identifier", versions: [
                #"<entity name="Note"><attribute name="fecha" optional="YES" attributeType="Date"/></entity>"#,
                #"<entity name="Note"><attribute name="momento" optional="YES" attributeType="Date" elementID="fecha"/></entity>"#,
            ], expected: 0),
        ])
}
