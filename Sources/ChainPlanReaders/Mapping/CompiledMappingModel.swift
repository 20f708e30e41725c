import Foundation

/// A compiled mapping model (`.cdm`, an `NSKeyedArchiver` archive of `NSMappingModel`): the
/// source and destination entity hashes its entity mappings record, which is all Core Data
/// uses to decide whether it fits a migration (§3).
package struct CompiledMappingModel: Sendable, Hashable {
    package struct EntityMapping: Sendable, Hashable {
        package var name: String
        package var sourceEntity: String?
        package var destinationEntity: String?
        /// 32 bytes, nil when the mapping records none (an added entity has no source).
        package var sourceHash: Data?
        package var destinationHash: Data?
    }

    package var entityMappings: [EntityMapping]

    /// The keys of `NSMappingModel` / `NSEntityMapping` objects read.
    static let archiveKeys: Set<String> = [
        "$class", "$classes", "$classname", "NS.keys", "NS.objects", "NSEntityMappings", "NSMappingName",
        "NSSourceEntityName", "NSDestinationEntityName", "NSSourceEntityVersionHash", "NSDestinationEntityVersionHash",
    ]

    /// Reads `data`; throws a readable message for anything that is not such an archive.
    package static func decode(_ data: Data) throws(ArchiveError) -> CompiledMappingModel {
        do throws(ArchiveError) {
            let archive = try KeyedArchive(data: data, keys: Self.archiveKeys)
            let root = try archive.object(.uid(archive.rootIndex), "the mapping model")
            var mappings: [EntityMapping] = []
            for element in try archive.arrayElements(root["NSEntityMappings"], "the entity mappings") {
                let object = try archive.object(element, "an entity mapping")
                func hash(_ key: String) throws(ArchiveError) -> Data? {
                    guard let value = object[key], case .data(let data) = try archive.resolve(value) else { return nil }
                    return data
                }
                mappings.append(EntityMapping(
                    name: try archive.string(object["NSMappingName"], "the mapping name") ?? "",
                    sourceEntity: try archive.string(object["NSSourceEntityName"], "the source entity"),
                    destinationEntity: try archive.string(object["NSDestinationEntityName"], "the destination entity"),
                    sourceHash: try hash("NSSourceEntityVersionHash"),
                    destinationHash: try hash("NSDestinationEntityVersionHash")))
            }
            return CompiledMappingModel(entityMappings: mappings)
        } catch {
            throw ArchiveError("the compiled mapping model cannot be read: \(error.message)")
        }
    }

    /// Source entity name → hash, for every mapping that records both.
    package var sourceHashes: [String: Data] {
        var hashes: [String: Data] = [:]
        for mapping in entityMappings {
            if let name = mapping.sourceEntity, let hash = mapping.sourceHash { hashes[name] = hash }
        }
        return hashes
    }

    /// Destination entity name → hash.
    package var destinationHashes: [String: Data] {
        var hashes: [String: Data] = [:]
        for mapping in entityMappings {
            if let name = mapping.destinationEntity, let hash = mapping.destinationHash { hashes[name] = hash }
        }
        return hashes
    }
}
