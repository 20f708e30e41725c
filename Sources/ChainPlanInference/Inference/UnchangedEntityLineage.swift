/// The stored property names of an entity of one content (`EntityContent`): one object per
/// distinct content, shared by every version and comparison with that content, so that two of
/// them usually compare by identity.
public final class PropertyNames: Sendable, Hashable {
    public let names: Set<String>

    public init(_ names: Set<String>) {
        self.names = names
    }

    public static func == (lhs: PropertyNames, rhs: PropertyNames) -> Bool {
        lhs === rhs || lhs.names == rhs.names
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
    }
}

/// Where the values of a source entity compared unchanged go: each of `properties` (every stored
/// property the entity has) keeps its name, in entity `destination`. One entry stands for what
/// would otherwise be a property lineage entry per property.
///
/// Example (its test runs it): `Note { title, body }` unchanged into `Note` is
/// `UnchangedEntityLineage(destination: "Note", properties: ["body", "title"])`, written out
/// `Note.title → Note.title`, `Note.body → Note.body`.
public struct UnchangedEntityLineage: Sendable, Hashable {
    public var destination: String
    public var properties: PropertyNames

    public init(destination: String, properties: PropertyNames) {
        self.destination = destination
        self.properties = properties
    }
}
