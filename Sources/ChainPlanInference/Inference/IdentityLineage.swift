extension ResolvedView {
    /// Each entity `including` admits, and each of its stored properties, to itself (a later
    /// entity of a name already taken adds its properties to the first one's).
    ///
    /// Example (its test runs it): `Note { title, body }` gives `Note → Note`,
    /// `Note.title → Note.title`, `Note.body → Note.body`.
    package func identityLineage(including: (String) -> Bool = { _ in true })
        -> (entities: [String: String], properties: [PropertyKey: PropertyKey]) {
        var entities: [String: String] = [:]
        var properties: [PropertyKey: PropertyKey] = [:]
        for entity in self.entities where including(entity.entity.name) {
            let name = entity.entity.name
            entities[name] = name
            for property in entity.attributes.filter({ !$0.isTransient }).map(\.name) + entity.relationships.filter({ !$0.isTransient }).map(\.name) {
                properties[PropertyKey(name, property)] = PropertyKey(name, property)
            }
        }
        return (entities, properties)
    }
}
