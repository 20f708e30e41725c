// The CoreStore declarations the code `chainplan stage --format corestore` writes uses, with
// CoreStore 9's names and signatures (Sources/MigrationChain.swift, SQLiteStore.swift,
// XcodeSchemaMappingProvider.swift, CustomSchemaMappingProvider.swift, DataStack+Concurrency.swift),
// so tests can type-check that code on Linux (compiled as a module named CoreStore).
import Foundation

public typealias ModelVersion = String
public typealias EntityName = String
public typealias KeyPathString = String
public typealias XcodeDataModelFileName = String

public struct MigrationChain: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public init(arrayLiteral elements: String...) {}
    public init(dictionaryLiteral elements: (String, String)...) {}
    public init(stringLiteral value: String) {}
    public init(nilLiteral: ()) {}
}

public protocol SchemaMappingProvider {}

public final class XcodeSchemaMappingProvider: SchemaMappingProvider {
    public required init(from sourceVersion: ModelVersion, to destinationVersion: ModelVersion, mappingModelBundle: Bundle) {}
}

public class CustomSchemaMappingProvider: SchemaMappingProvider {
    public required init(from sourceVersion: ModelVersion, to destinationVersion: ModelVersion, entityMappings: Set<CustomMapping> = []) {}

    public enum CustomMapping: Hashable {
        case deleteEntity(sourceEntity: EntityName)
        case insertEntity(destinationEntity: EntityName)
        case copyEntity(sourceEntity: EntityName, destinationEntity: EntityName)
        case transformEntity(sourceEntity: EntityName, destinationEntity: EntityName, transformer: Transformer)

        public typealias Transformer = (_ sourceObject: UnsafeSourceObject, _ createDestinationObject: () -> UnsafeDestinationObject) throws(any Swift.Error) -> Void

        public static func inferredTransformation(_ sourceObject: UnsafeSourceObject, _ createDestinationObject: () -> UnsafeDestinationObject) throws(any Swift.Error) {}

        public static func == (lhs: CustomMapping, rhs: CustomMapping) -> Bool { true }
        public func hash(into hasher: inout Hasher) {}
    }

    public final class UnsafeSourceObject {
        public subscript(attribute: KeyPathString) -> Any? { nil }
    }

    public final class UnsafeDestinationObject {
        public subscript(attribute: KeyPathString) -> Any? {
            get { nil }
            set {}
        }
    }
}

public typealias ModelConfiguration = String?

public struct LocalStorageOptions: OptionSet, ExpressibleByNilLiteral {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(nilLiteral: ()) { rawValue = 0 }
}

public protocol StorageInterface: AnyObject {}
public protocol LocalStorage: StorageInterface {}

public final class SQLiteStore: LocalStorage {
    public init(fileName: String, configuration: ModelConfiguration = nil, migrationMappingProviders: [SchemaMappingProvider] = [],
                localStorageOptions: LocalStorageOptions = nil) {}
}

public enum MigrationProgress<T: StorageInterface> {
    case migrating(storage: T, progressObject: Progress)
    case finished(storage: T, migrationRequired: Bool)
}

public final class DataStack {
    public convenience init(xcodeModelName: XcodeDataModelFileName = "App", bundle: Bundle = Bundle.main, migrationChain: MigrationChain = nil) { self.init() }
    init() {}

    public var async: AsyncNamespace { AsyncNamespace() }

    public struct AsyncNamespace {
        public func addStorage<T: LocalStorage>(_ storage: T) -> AsyncThrowingStream<MigrationProgress<T>, any Swift.Error> {
            AsyncThrowingStream { $0.finish() }
        }
    }
}
