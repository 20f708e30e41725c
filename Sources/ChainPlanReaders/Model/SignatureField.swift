/// One field of a signature, used to say which fields a source (e.g. a mapping model's
/// embedded snapshot) does not record, so comparisons can leave them out.
public enum SignatureField: String, Sendable, Hashable, CaseIterable {
    case entityParent, entityAbstract, entityVersionHashModifier, entityRenamingIdentifier
    case propertyOptional, propertyTransient, propertyVersionHashModifier, propertyRenamingIdentifier
    case attributeType
    case relationshipDestination, relationshipMinCount, relationshipMaxCount, relationshipDeletionRule
    case relationshipInverse, relationshipToMany
}
