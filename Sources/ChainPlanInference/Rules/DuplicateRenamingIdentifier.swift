import ChainPlanCore

extension DiagnosticCode {
    /// CP212 DuplicateRenamingIdentifier: two entities or properties share a renaming identifier.
    ///
    /// Raised in `DuplicateDestinationEntityKey.swift`, `DuplicateSourceEntityKey.swift`, `DuplicateSourcePropertyKey.swift`.
    public static let duplicateRenamingIdentifier = DiagnosticCode(
        "CP212", name: "DuplicateRenamingIdentifier", severity: .error,
        summary: "Two entities or properties share a renaming identifier",
        help: "Core Data keys entities and stored properties by renaming identifier, else name. Two source entities, two destination entities, or two stored properties of one source entity with the same key make it refuse to infer (134190 \"Each source entity / destination entity / property must have a unique renaming identifier\"; the app fails with 134140). Typical cause: an element renamed with the old name as identifier while a new one takes the old name. Remove or change one of the identifiers.",
        examples: [
            .versions("renamed with the old name as identifier, then a new entity takes the old name", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Memo" elementID="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 1),
            .versions("renamed only", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
                #"<entity name="Memo" elementID="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
            ], expected: 0),
        ])
}
