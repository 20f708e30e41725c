/// One `Name.xcmappingmodel` as read from its `xcmapping.xml`.
///
/// `xcmapping.xml` is a Core Data XML store of Xcode's mapping editor (reference
/// `core-data.md` part 2 §4). chainplan keeps what matters for planning: the stated model
/// paths (often stale), the embedded snapshots of the source and destination models, the
/// entity mappings and their custom policies and stored value expressions.
public struct MappingModel: Sendable, Hashable {
    /// The folder name without `.xcmappingmodel`, e.g. `AltStoreToAltStore2`.
    public var name: String
    /// Display path of the `.xcmappingmodel` folder.
    public var path: String
    /// Display path of the `xcmapping.xml` document (the file diagnostics point at).
    public var documentPath: String
    /// `sourcemodelpath` as written (may be stale, carry `⭐️` markers, or be absolute).
    public var statedSourcePath: String?
    /// `destinationmodelpath` as written.
    public var statedDestinationPath: String?
    /// Bundle and version parsed from `statedSourcePath`.
    public var sourceHint: ModelPathHint?
    /// Bundle and version parsed from `statedDestinationPath`.
    public var destinationHint: ModelPathHint?
    /// Entity mappings, sorted by mapping number, then source and destination entity.
    public var entityMappings: [EntityMapping]
    /// The editor's snapshot of the source model (`sourcemodeldata`), when decodable.
    public var sourceModel: ObjectModel?
    /// The editor's snapshot of the destination model (`destinationmodeldata`), when decodable.
    public var destinationModel: ObjectModel?
    /// Signature fields the source snapshot does not record (compare without them).
    public var sourceUnrecordedFields: Set<SignatureField>
    /// Signature fields the destination snapshot does not record.
    public var destinationUnrecordedFields: Set<SignatureField>
    /// Custom `NSEntityMigrationPolicy` class names, sorted and unique.
    public var customPolicies: [String]
    /// Attribute and relationship mappings that store a value expression (`valueexpressiondata`).
    public var valueExpressionCount: Int
    /// 1-based line of the `XDDEVMAPPINGMODEL` object in `xcmapping.xml`.
    public var line: Int?
    /// 1-based line of the `sourcemodeldata` attribute.
    public var sourceDataLine: Int?
    /// 1-based line of the `destinationmodeldata` attribute.
    public var destinationDataLine: Int?

    public init(
        name: String, path: String, documentPath: String? = nil,
        statedSourcePath: String? = nil, statedDestinationPath: String? = nil,
        sourceHint: ModelPathHint? = nil, destinationHint: ModelPathHint? = nil,
        entityMappings: [EntityMapping] = [], sourceModel: ObjectModel? = nil, destinationModel: ObjectModel? = nil,
        sourceUnrecordedFields: Set<SignatureField> = [], destinationUnrecordedFields: Set<SignatureField> = [],
        customPolicies: [String] = [], valueExpressionCount: Int = 0,
        line: Int? = nil, sourceDataLine: Int? = nil, destinationDataLine: Int? = nil
    ) {
        self.name = name
        self.path = path
        self.documentPath = documentPath ?? path + "/xcmapping.xml"
        self.statedSourcePath = statedSourcePath
        self.statedDestinationPath = statedDestinationPath
        self.sourceHint = sourceHint ?? statedSourcePath.flatMap(ModelPathHint.init(statedPath:))
        self.destinationHint = destinationHint ?? statedDestinationPath.flatMap(ModelPathHint.init(statedPath:))
        self.entityMappings = entityMappings
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.sourceUnrecordedFields = sourceUnrecordedFields
        self.destinationUnrecordedFields = destinationUnrecordedFields
        self.customPolicies = customPolicies
        self.valueExpressionCount = valueExpressionCount
        self.line = line
        self.sourceDataLine = sourceDataLine
        self.destinationDataLine = destinationDataLine
    }
}

/// The bundle and version a stated model path names, e.g. `AltStore` and `AltStore 2`
/// from `AltStore/Model/AltStore.xcdatamodeld/AltStore 2.xcdatamodel`.
public struct ModelPathHint: Sendable, Hashable {
    /// The `.xcdatamodeld` name without extension; nil for a path to a lone `.xcdatamodel`.
    public var bundle: String?
    /// The `.xcdatamodel` name without extension.
    public var version: String

    public init(bundle: String?, version: String) {
        self.bundle = bundle
        self.version = version
    }

    /// Parses a stated path: strips `⭐️` markers (CoreStore's files), ignores any prefix
    /// (relative folders that moved, absolute paths from the author's machine) and keeps
    /// the trailing `X.xcdatamodeld/Y.xcdatamodel`. nil when no `.xcdatamodel` component.
    public init?(statedPath: String) {
        // U+2B50 (star) and U+FE0F (emoji presentation selector) never occur in real folder names.
        let cleaned = String(String.UnicodeScalarView(statedPath.unicodeScalars.filter {
            $0.value != 0x2B50 && $0.value != 0xFE0F
        }))
        let components = cleaned.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let index = components.lastIndex(where: { $0.hasSuffix(".xcdatamodel") }) else { return nil }
        let version = String(components[index].dropLast(".xcdatamodel".count))
        guard !version.isEmpty else { return nil }
        var bundle: String?
        if index > 0, components[index - 1].hasSuffix(".xcdatamodeld") {
            let name = String(components[index - 1].dropLast(".xcdatamodeld".count))
            bundle = name.isEmpty ? nil : name
        }
        self.init(bundle: bundle, version: version)
    }
}

/// One `XDDEVENTITYMAPPING`: how instances of a source entity become destination instances.
public struct EntityMapping: Sendable, Hashable {
    /// The mapping's own name, when stored (Xcode usually derives it and stores none).
    public var name: String?
    /// `sourcename`; nil for a mapping that only adds destination instances.
    public var sourceEntity: String?
    /// `destinationname`; nil for a mapping that only removes source instances.
    public var destinationEntity: String?
    /// `mappingtypename` as written (`Undefined` in every file seen so far).
    public var mappingType: String
    /// `migrationpolicyclassname`: a custom `NSEntityMigrationPolicy` subclass.
    public var policyClassName: String?
    /// `mappingnumber`, the editor's order.
    public var mappingNumber: Int?
    /// `sourcefilterpredicatestring`, when set.
    public var sourceFilterPredicate: String?
    /// Attribute mappings, sorted by name.
    public var attributeMappings: [PropertyMapping]
    /// Relationship mappings, sorted by name.
    public var relationshipMappings: [PropertyMapping]
    /// 1-based line of the object in `xcmapping.xml`.
    public var line: Int?

    public init(
        name: String? = nil, sourceEntity: String?, destinationEntity: String?, mappingType: String = "Undefined",
        policyClassName: String? = nil, mappingNumber: Int? = nil, sourceFilterPredicate: String? = nil,
        attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = [], line: Int? = nil
    ) {
        self.name = name
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
        self.mappingType = mappingType
        self.policyClassName = policyClassName
        self.mappingNumber = mappingNumber
        self.sourceFilterPredicate = sourceFilterPredicate
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.line = line
    }
}

/// One `XDDEVATTRIBUTEMAPPING` or `XDDEVRELATIONSHIPMAPPING`.
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property name (absent in rare editor leftovers).
    public var name: String?
    /// True when a value expression is stored (`valueexpressiondata`): the mapping
    /// computes the value rather than relying on the editor's default.
    public var hasValueExpression: Bool
    /// 1-based line of the object in `xcmapping.xml`.
    public var line: Int?

    public init(name: String?, hasValueExpression: Bool = false, line: Int? = nil) {
        self.name = name
        self.hasValueExpression = hasValueExpression
        self.line = line
    }
}
