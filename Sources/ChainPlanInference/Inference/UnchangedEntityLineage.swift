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

extension Dictionary where Key == PropertyKey, Value == PropertyKey {
    /// These entries with `unchanged` written out beside them, one entry per property of each
    /// unchanged entity.
    package func writingOut(_ unchanged: [String: UnchangedEntityLineage]) -> [PropertyKey: PropertyKey] {
        var all = self
        for (entity, whole) in unchanged {
            for name in whole.properties.names { all[PropertyKey(entity, name)] = PropertyKey(whole.destination, name) }
        }
        return all
    }
}

extension ResolvedView {
    /// Each entity `including` admits, and each of its stored properties, to itself: an entity as
    /// one `UnchangedEntityLineage` entry (its content's names, else its stored properties'), a
    /// later entity of a name already taken property by property (written out, the union of both).
    package func identityLineage(including: (String) -> Bool = { _ in true })
        -> (entities: [String: String], properties: [PropertyKey: PropertyKey], unchanged: [String: UnchangedEntityLineage]) {
        var entities: [String: String] = [:]
        var properties: [PropertyKey: PropertyKey] = [:]
        var unchanged: [String: UnchangedEntityLineage] = [:]
        for entity in self.entities where including(entity.entity.name) {
            let name = entity.entity.name
            func stored() -> [String] {
                entity.attributes.filter { !$0.isTransient }.map(\.name) + entity.relationships.filter { !$0.isTransient }.map(\.name)
            }
            if entities.updateValue(name, forKey: name) == nil {
                unchanged[name] = UnchangedEntityLineage(destination: name, properties: entity.contentNames ?? PropertyNames(Set(stored())))
            } else {
                for property in stored() { properties[PropertyKey(name, property)] = PropertyKey(name, property) }
            }
        }
        return (entities, properties, unchanged)
    }
}
