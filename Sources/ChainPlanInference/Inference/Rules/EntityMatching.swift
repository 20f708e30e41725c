extension InferenceRules {
    /// §4.1: each side keys its entities by renaming identifier, else name; exact key equality
    /// pairs them. No fallback from an identifier to the name.
    public static let entityMatching = InferenceRule(
        id: "key-match",
        checks: "Entities, and the stored properties of matched entities, are paired by key (renaming identifier, else name) on each side, by exact equality; "
            + "a source entity that carries an identifier from an earlier rename is matched only by a destination keyed by that identifier",
        basis: .coreDataBuilder,
        examples: [
            InferenceRuleExample("renamed with the old name as renaming identifier",
                                 entity("Car", attribute("color", "String")),
                                 entity("Automobile", attribute("color", "String"), "elementID=\"Car\""), .inferred),
            InferenceRuleExample("a source identifier left from an earlier rename does not match the plain name",
                                 entity("Note", attribute("title", "String"), "elementID=\"Memo\"") + entity("Tag"),
                                 entity("Note", attribute("title", "String")) + entity("Tag", attribute("name", "String")),
                                 .inferred, fires: false),
            InferenceRuleExample("the identifier chains: both sides keyed 'Car'",
                                 entity("Automobile", attribute("color", "String"), "elementID=\"Car\""),
                                 entity("Vehicle", attribute("color", "String"), "elementID=\"Car\""), .inferred),
        ])

    /// The key Core Data gives an entity or property: its renaming identifier, else its name.
    package static func key(name: String, renamingIdentifier: String?) -> String {
        if let renamingIdentifier, !renamingIdentifier.isEmpty { return renamingIdentifier }
        return name
    }
}

/// Pairs destinations with sources as Core Data does (§4.1, §4.2): each side keyed by renaming
/// identifier, else name; exact key equality; the first source of a key wins (a duplicate source
/// key is a CP212 finding of its own), and several destinations may take the same source.
enum Matcher {
    static func match(sources: [(name: String, renamingIdentifier: String?)],
                      destinations: [(name: String, renamingIdentifier: String?)]) -> [(Int, Int)] {
        var byKey: [String: Int] = [:]
        for (index, source) in sources.enumerated() {
            let key = InferenceRules.key(name: source.name, renamingIdentifier: source.renamingIdentifier)
            if byKey[key] == nil { byKey[key] = index }
        }
        return destinations.enumerated().compactMap { index, destination in
            byKey[InferenceRules.key(name: destination.name, renamingIdentifier: destination.renamingIdentifier)].map { ($0, index) }
        }
    }
}
