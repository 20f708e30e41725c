/// One version of a Core Data model, read from `<Version>.xcdatamodel/contents`
/// (or decoded from a mapping model's embedded snapshot).
///
/// Plain values only: nothing here touches the file system.
public struct ObjectModel: Sendable, Hashable {
    public var entities: [Entity]
    public var configurations: [Configuration]
    public var fetchRequests: [FetchRequestTemplate]
    public var composites: [CompositeType]
    /// `userDefinedModelVersionIdentifier` (empty string and absent are both nil).
    public var versionIdentifier: String?
    public var lastSavedToolsVersion: String?
    public var systemVersion: String?
    public var minimumToolsVersion: String?
    public var sourceLanguage: String?
    /// `usedWithCloudKit="YES"` on `<model>`: the Default configuration (every entity) is
    /// mirrored to CloudKit.
    public var usedWithCloudKit: Bool

    public init(
        entities: [Entity] = [],
        configurations: [Configuration] = [],
        fetchRequests: [FetchRequestTemplate] = [],
        composites: [CompositeType] = [],
        versionIdentifier: String? = nil,
        lastSavedToolsVersion: String? = nil,
        systemVersion: String? = nil,
        minimumToolsVersion: String? = nil,
        sourceLanguage: String? = nil,
        usedWithCloudKit: Bool = false
    ) {
        self.entities = entities
        self.configurations = configurations
        self.fetchRequests = fetchRequests
        self.composites = composites
        self.versionIdentifier = versionIdentifier
        self.lastSavedToolsVersion = lastSavedToolsVersion
        self.systemVersion = systemVersion
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
        self.usedWithCloudKit = usedWithCloudKit
    }

    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// The entities mirrored to CloudKit: every entity when the Default configuration is
    /// (`usedWithCloudKit` on `<model>`), else the members of configurations marked so.
    public var cloudKitEntities: Set<String> {
        if usedWithCloudKit { return Set(entities.map(\.name)) }
        return Set(configurations.filter(\.usedWithCloudKit).flatMap(\.memberEntities))
    }
}

public struct Entity: Sendable, Hashable {
    public var name: String
    public var parentEntity: String?
    public var isAbstract: Bool
    /// The renaming identifier (XML `elementID`).
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var representedClassName: String?
    public var codeGenerationType: String?
    /// Declared (not inherited) attributes, in file order.
    public var attributes: [Attribute]
    /// Declared (not inherited) relationships, in file order.
    public var relationships: [Relationship]
    public var fetchedProperties: [FetchedProperty]
    public var fetchIndexes: [FetchIndex]
    /// Each constraint is a list of property names.
    public var uniquenessConstraints: [[String]]
    /// Legacy `<compoundIndexes>`: each index is a list of property names.
    public var compoundIndexes: [[String]]
    public var userInfo: [UserInfoEntry]
    /// 1-based line of the `<entity>` element in its file, when read from XML.
    public var line: Int?
    /// 1-based column of the `<entity>` element's `<`, when known.
    public var column: Int?

    public init(
        name: String, parentEntity: String? = nil, isAbstract: Bool = false,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
        representedClassName: String? = nil, codeGenerationType: String? = nil,
        attributes: [Attribute] = [], relationships: [Relationship] = [],
        fetchedProperties: [FetchedProperty] = [], fetchIndexes: [FetchIndex] = [],
        uniquenessConstraints: [[String]] = [], compoundIndexes: [[String]] = [],
        userInfo: [UserInfoEntry] = [], line: Int? = nil
    ) {
        self.name = name
        self.parentEntity = parentEntity
        self.isAbstract = isAbstract
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.representedClassName = representedClassName
        self.codeGenerationType = codeGenerationType
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.fetchIndexes = fetchIndexes
        self.uniquenessConstraints = uniquenessConstraints
        self.compoundIndexes = compoundIndexes
        self.userInfo = userInfo
        self.line = line
    }
}

/// Core Data attribute types, spelled as Xcode writes `attributeType`.
public enum AttributeType: Sendable, Hashable {
    case undefined, integer16, integer32, integer64, decimal, double, float
    case string, boolean, date, binary, transformable, uuid, uri, objectID, composite
    /// A spelling chainplan does not know (kept verbatim; Xcode adds types over time).
    case other(String)

    public init(xmlValue: String) {
        switch xmlValue {
        case "Undefined": self = .undefined
        case "Integer 16": self = .integer16
        case "Integer 32": self = .integer32
        case "Integer 64": self = .integer64
        case "Decimal": self = .decimal
        case "Double": self = .double
        case "Float": self = .float
        case "String": self = .string
        case "Boolean": self = .boolean
        case "Date": self = .date
        case "Binary": self = .binary
        case "Transformable": self = .transformable
        case "UUID": self = .uuid
        case "URI": self = .uri
        case "ObjectID", "Object ID": self = .objectID
        case "Composite": self = .composite
        default: self = .other(xmlValue)
        }
    }

    /// The spelling Xcode writes in `contents`.
    public var xmlValue: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binary: "Binary"
        case .transformable: "Transformable"
        case .uuid: "UUID"
        case .uri: "URI"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        case .other(let raw): raw
        }
    }

    /// Integer, decimal and floating-point types.
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }
}

public struct Attribute: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    public var isIndexed: Bool
    public var defaultValueString: String?
    /// `defaultDateTimeInterval`, seconds since 2001-01-01, kept as written.
    public var defaultDateTimeInterval: String?
    public var minValueString: String?
    public var maxValueString: String?
    public var minDateTimeInterval: String?
    public var maxDateTimeInterval: String?
    public var regularExpressionString: String?
    public var isDerived: Bool
    public var derivationExpression: String?
    public var allowsExternalBinaryDataStorage: Bool
    /// `preserveAfterDeletion="YES"` (kept in persistent history as a tombstone). Hashed.
    public var isPreservedAfterDeletion: Bool = false
    public var valueTransformerName: String?
    public var customClassName: String?
    /// For `Composite` attributes, the `<composite>` type name.
    public var compositeName: String?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var usesScalarValueType: Bool?
    public var userInfo: [UserInfoEntry]
    public var line: Int?
    /// 1-based column of the element's `<`, when known.
    public var column: Int?

    public init(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        isIndexed: Bool = false, defaultValueString: String? = nil, defaultDateTimeInterval: String? = nil,
        minValueString: String? = nil, maxValueString: String? = nil,
        minDateTimeInterval: String? = nil, maxDateTimeInterval: String? = nil,
        regularExpressionString: String? = nil, isDerived: Bool = false, derivationExpression: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false, valueTransformerName: String? = nil,
        customClassName: String? = nil, compositeName: String? = nil,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
        usesScalarValueType: Bool? = nil, userInfo: [UserInfoEntry] = [], line: Int? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpressionString = regularExpressionString
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.compositeName = compositeName
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.usesScalarValueType = usesScalarValueType
        self.userInfo = userInfo
        self.line = line
    }

    /// True when a default value is set (string or date form).
    public var hasDefaultValue: Bool { defaultValueString != nil || defaultDateTimeInterval != nil }

    /// Mandatory as Core Data's mapping builder, in-place validation and object validation decide
    /// (core-data-internals §4.2): not optional.
    public var isMandatory: Bool { !isOptional }
}

public enum DeletionRule: String, Sendable, Hashable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

public struct Relationship: Sendable, Hashable {
    public var name: String
    public var destinationEntity: String?
    public var inverseName: String?
    public var inverseEntity: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// `minCount`, 0 when absent.
    public var minCount: Int
    /// `maxCount`, 0 (unbounded) when absent. A to-one is written `maxCount="1"`.
    public var maxCount: Int
    /// True when `minCount` / `maxCount` were written (or recorded by a compiled snapshot);
    /// the version hash feeds a default for an absent one (see `VersionHasher`).
    public var hasWrittenMinCount: Bool = false
    public var hasWrittenMaxCount: Bool = false
    public var deletionRule: DeletionRule
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [UserInfoEntry]
    public var line: Int?
    /// 1-based column of the element's `<`, when known.
    public var column: Int?

    public init(
        name: String, destinationEntity: String?, inverseName: String? = nil, inverseEntity: String? = nil,
        isToMany: Bool = false, isOrdered: Bool = false, isOptional: Bool = true, isTransient: Bool = false,
        minCount: Int = 0, maxCount: Int = 0, deletionRule: DeletionRule = .nullify,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
        userInfo: [UserInfoEntry] = [], line: Int? = nil
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount
        self.maxCount = maxCount
        self.deletionRule = deletionRule
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.line = line
    }

    /// Mandatory as Core Data's mapping builder, in-place validation and object validation decide
    /// (core-data-internals §4.2): not optional, and to-one or a to-many with a minimum count above
    /// zero. `optional="YES" minCount="1"` (Xcode 4–7's to-one) is optional.
    public var isMandatory: Bool { !isOptional && (!isToMany || minCount > 0) }
}

public struct FetchedProperty: Sendable, Hashable {
    public var name: String
    public var entity: String?
    public var predicate: String?
    public var line: Int?
    /// 1-based column of the element's `<`, when known.
    public var column: Int?

    public init(name: String, entity: String? = nil, predicate: String? = nil, line: Int? = nil) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.line = line
    }
}

public struct FetchIndex: Sendable, Hashable {
    public struct Element: Sendable, Hashable {
        /// The property name, or nil for an expression element.
        public var property: String?
        public var expression: String?
        public var type: String?
        public var ascending: Bool

        public init(property: String?, expression: String? = nil, type: String? = nil, ascending: Bool = true) {
            self.property = property
            self.expression = expression
            self.type = type
            self.ascending = ascending
        }
    }

    public var name: String
    public var elements: [Element]

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

public struct Configuration: Sendable, Hashable {
    public var name: String
    public var memberEntities: [String]
    /// `usedWithCloudKit="YES"`: the configuration's entities are mirrored to CloudKit.
    public var usedWithCloudKit: Bool

    public init(name: String, memberEntities: [String], usedWithCloudKit: Bool = false) {
        self.name = name
        self.memberEntities = memberEntities
        self.usedWithCloudKit = usedWithCloudKit
    }
}

public struct FetchRequestTemplate: Sendable, Hashable {
    public var name: String
    public var entity: String?
    public var predicate: String?

    public init(name: String, entity: String? = nil, predicate: String? = nil) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
    }
}

/// An iOS 17+ composite attribute type (`<composite>`).
public struct CompositeType: Sendable, Hashable {
    public var name: String
    public var attributes: [Attribute]

    public init(name: String, attributes: [Attribute]) {
        self.name = name
        self.attributes = attributes
    }
}

extension CompositeType {
    /// Deepest nesting of composite types followed; a type that contains itself stops there.
    public static let maxDepth = 8
    /// Most elements one composite attribute is flattened into (nested types multiply: eight
    /// levels of ten elements each would be a hundred million); the rest are left out.
    public static let maxElements = 10_000

    /// The stored elements of a composite attribute: each element of its type, nested composite
    /// types flattened, named `attribute.element` (renaming identifiers prefixed the same way,
    /// from the attribute's and each element's own, else their names). Empty for an attribute of
    /// another type or of an unknown composite type. Core Data keeps each element in a column
    /// of its own, so migration rules apply to them one by one. At most `maxElements` elements
    /// (nested composites counted too) are visited, so breadth is bounded as well as depth.
    public static func elements(of attribute: Attribute, among composites: [CompositeType]) -> [Attribute] {
        guard attribute.type == .composite else { return [] }
        var result: [Attribute] = []
        var budget = maxElements
        func identifier(_ attribute: Attribute) -> String {
            attribute.renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? attribute.name
        }
        func flatten(_ name: String?, prefix: String, renamingPrefix: String, visited: [String]) {
            guard let name, !visited.contains(name), visited.count < maxDepth,
                  let type = composites.first(where: { $0.name == name }) else { return }
            for element in type.attributes {
                guard budget > 0 else { return }
                budget -= 1
                var flat = element
                flat.name = prefix + "." + element.name
                flat.renamingIdentifier = renamingPrefix + "." + identifier(element)
                if element.type == .composite {
                    flatten(element.compositeName, prefix: flat.name, renamingPrefix: flat.renamingIdentifier ?? flat.name,
                            visited: visited + [name])
                } else {
                    result.append(flat)
                }
            }
        }
        flatten(attribute.compositeName, prefix: attribute.name, renamingPrefix: identifier(attribute), visited: [])
        return result
    }
}

public struct UserInfoEntry: Sendable, Hashable {
    public var key: String
    public var value: String
}
