import ChainPlanReaders
/// An attribute a step makes mandatory without a default value, on an entity that exists before
/// the step (its rows must get a value): an optional attribute made mandatory, or a mandatory one
/// added, neither with a default (reference §4.2: inferred, flagged "could fail validation", the
/// migration fails with 134110 when a row has no value). Example: `Note.title` optional at V1,
/// mandatory without default at V2.
struct MandatoryWithoutDefault: Hashable {
    var entity: String
    var attribute: String
    /// The attribute exists (optional) before the step; false when the step adds it.
    var existed: Bool
    /// The attribute's `attributeType`.
    var type: String

    /// Every such attribute of the step `old → new`.
    static func find(old: ObjectModel, new: ObjectModel) -> [MandatoryWithoutDefault] {
        var targets: [MandatoryWithoutDefault] = []
        for entity in new.entities {
            guard let source = MovedAttributes.counterpart(of: entity, in: old), !entity.isAbstract else { continue }
            for attribute in entity.attributes where !attribute.isOptional && !attribute.hasDefaultValue && !attribute.isTransient && !attribute.isDerived {
                let attributeKey = MovedAttributes.key(attribute.name, attribute.renamingIdentifier)
                if let before = source.attributes.first(where: { MovedAttributes.key($0.name, $0.renamingIdentifier) == attributeKey }) {
                    if before.isOptional, before.type == attribute.type { targets.append(MandatoryWithoutDefault(entity: entity.name, attribute: attribute.name, existed: true, type: attribute.type.xmlValue)) }
                } else if !source.relationships.contains(where: { $0.name == attribute.name }) {
                    targets.append(MandatoryWithoutDefault(entity: entity.name, attribute: attribute.name, existed: false, type: attribute.type.xmlValue))
                }
            }
        }
        return targets
    }
}
