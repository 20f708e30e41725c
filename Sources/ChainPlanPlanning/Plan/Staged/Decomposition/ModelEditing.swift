import ChainPlanReaders
/// Applies a decomposition's edits to a parsed model (the `contents` XML counterpart is
/// `ModelContentsEditing`). An edit whose entity or attribute is missing leaves the model as it is
/// and returns nil, so a suggestion is never built on an edit that did not happen.
enum ModelEditing {
    static func apply(_ edits: [ModelEdit], to model: ObjectModel, sources: (String) -> ObjectModel?) -> ObjectModel? {
        var model = model
        for edit in edits {
            guard let index = model.entities.firstIndex(where: { $0.name == edit.entity }) else { return nil }
            switch edit.kind {
            case .restoreAttribute:
                guard let version = edit.sourceVersion, let source = sources(version)?.entity(named: edit.sourceEntity ?? edit.entity),
                      var attribute = source.attributes.first(where: { $0.name == edit.attribute }),
                      !model.entities[index].attributes.contains(where: { $0.name == edit.attribute }),
                      !model.entities[index].relationships.contains(where: { $0.name == edit.attribute }) else { return nil }
                attribute.line = nil
                attribute.column = nil
                // Where Xcode would put it: before the first attribute whose name sorts after it.
                let attributes = model.entities[index].attributes
                model.entities[index].attributes.insert(attribute, at: attributes.firstIndex { $0.name > attribute.name } ?? attributes.count)
            case .makeOptional:
                guard let position = model.entities[index].attributes.firstIndex(where: { $0.name == edit.attribute }) else { return nil }
                model.entities[index].attributes[position].isOptional = true
            }
        }
        return model
    }
}
