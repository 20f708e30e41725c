import ChainPlanReaders
/// What every property's hash starts from: the inputs of the property base hash (§1.2) that an
/// attribute and a relationship both have, which `VersionHasher` hashes first.
protocol HashedProperty {
    var name: String { get }
    var isOptional: Bool { get }
    var isTransient: Bool { get }
    var versionHashModifier: String? { get }
}

extension Attribute: HashedProperty {}
extension Relationship: HashedProperty {}
