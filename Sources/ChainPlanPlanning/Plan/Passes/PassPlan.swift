import ChainPlanCore
import ChainPlanReaders
/// The multi-pass plan of one heavyweight step (reference §8): which entity mappings run in which
/// `migrateStore` call (one call per pass, all into one destination store), so that memory stays
/// bounded (§8.2) and every relationship can still be set (§8.3). Made by `PassPlanner`.
///
/// JSON carries every key: an unknown count or estimate is `null`.
public struct PassPlan: Sendable, Hashable, Encodable {
    public struct Pass: Sendable, Hashable, Encodable {
        /// Destination entities created in this pass, in the destination model's order.
        public var entities: [String]
        public var entityMappings: [String]
        /// Source objects the pass loads (the store's rows), nil without a store.
        @ExplicitNull public var objects: Int? = nil
        /// The dry run's memory estimate for those objects, nil without a store.
        @ExplicitNull public var memoryBytes: Int? = nil
    }

    public struct Coverage: Sendable, Hashable, Encodable {
        /// Kept source entities no entity mapping reads: their objects are not migrated.
        public var unmapped: [String] = []
        /// Source entities read by more than one entity mapping into the same destination
        /// entity: their objects are created twice.
        public var mappedTwice: [String] = []
    }

    /// A relationship between entities of two passes. Associations do not cross `migrateStore`
    /// calls, so the later pass sets it by fetching the earlier pass's object from the
    /// destination by a unique key (one side suffices: Core Data keeps the inverse). Without
    /// one, the two passes are merged. JSON carries the `fix` beside the `key` it follows from.
    public struct CrossPass: Sendable, Hashable, Encodable {
        /// The entity whose relationship it is.
        public var entity: String
        public var relationship: String
        public var target: String
        /// The uniqueness constraint (attributes joined by `,`) of the entity of the earlier pass,
        /// by which the later pass fetches it; nil when it has none.
        public var key: String?

        public enum Fix: String, Sendable, Hashable, Encodable {
            /// Set in the later pass, fetching the migrated object by `key`.
            case fetchByKey = "fetch-by-key"
            /// No unique key to fetch by: the two passes were merged.
            case samePass = "same-pass"
        }

        /// How the relationship is set, which the key decides.
        public var fix: Fix { key == nil ? .samePass : .fetchByKey }

        private enum CodingKeys: String, CodingKey { case entity, relationship, target, fix, key }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode([.entity: entity, .relationship: relationship, .target: target, .fix: fix, .key: key])
        }
    }

    public var passes: [Pass]
    public var coverage: Coverage
    public var crossPass: [CrossPass]
    /// Everything in one call, nil without a store.
    @ExplicitNull public var singlePassMemoryBytes: Int?
}

/// One entity mapping of a step: its name and its source and destination entities, and where it
/// is written (a mapping model's `xcmapping.xml`), when it is.
public struct PassEntityMapping: Sendable, Hashable {
    public var name: String
    /// nil for a mapping that only creates destination objects.
    public var source: String?
    /// nil for a mapping that only removes source objects.
    public var destination: String?
    /// The mapping model it belongs to (nil: one the user will need to make).
    public var mappingModel: String?
    public var location: SourceLocation?

    public init(name: String, source: String?, destination: String?, mappingModel: String? = nil, location: SourceLocation? = nil) {
        self.name = name
        self.source = source
        self.destination = destination
        self.mappingModel = mappingModel
        self.location = location
    }

    /// The entity mappings of a mapping model, named as Core Data names them: the stored name,
    /// else Xcode's `SourceToDestination` (`EventToEvent`; `EventToVenue`; a mapping without a
    /// source is `ToVenue`).
    public static func of(_ model: MappingModel) -> [PassEntityMapping] {
        model.entityMappings.map { mapping in
            let name = mapping.name.flatMap { $0.isEmpty ? nil : $0 } ?? "\(mapping.sourceEntity ?? "")To\(mapping.destinationEntity ?? "")"
            return PassEntityMapping(name: name, source: mapping.sourceEntity, destination: mapping.destinationEntity,
                                     mappingModel: model.name, location: SourceLocation(file: model.documentPath, line: mapping.line))
        }
    }
}

/// Rows and average row payload of a source entity, read from a store.
public struct PassRows: Sendable, Hashable {
    public var rows: Int
    public var averageRowBytes: Int

    public init(rows: Int, averageRowBytes: Int) {
        self.rows = rows
        self.averageRowBytes = averageRowBytes
    }
}
