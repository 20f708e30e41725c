// The Core Data declarations the code `chainplan stage --format swift` writes uses, with the
// iOS 17 / macOS 14 SDK's names and Swift signatures, so tests can type-check that code on Linux
// (compiled as a module named CoreData). Bodies are placeholders: nothing here runs.
import Foundation

public let NSPersistentStoreStagedMigrationManagerOptionKey: String = "NSPersistentStoreStagedMigrationManagerOptionKey"
public let NSPersistentStoreDeferredLightweightMigrationOptionKey: String = "NSPersistentStoreDeferredLightweightMigrationOptionKey"
public let NSStoreModelVersionChecksumKey: String = "NSStoreModelVersionChecksumKey"
public let NSSQLiteStoreType: String = "SQLite"
public var NSManagedObjectModelReferenceNotFoundError: Int { 134504 }
public var NSStagedMigrationFrameworkVersionMismatchError: Int { 134505 }
public var NSStagedMigrationBackwardMigrationError: Int { 134506 }

open class NSManagedObjectModel: NSObject {
    public override init() {}
    public init?(contentsOf url: URL) { nil }
    open var versionChecksum: String { "" }
}

open class NSManagedObjectModelReference: NSObject {
    public init(model: NSManagedObjectModel, versionChecksum: String) {}
    public init(fileURL: URL, versionChecksum: String) {}
    public init(entityVersionHashes: [AnyHashable: Any], in bundle: Bundle?, versionChecksum: String) {}
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {}
    open var resolvedModel: NSManagedObjectModel { NSManagedObjectModel() }
    open var versionChecksum: String { "" }
}

open class NSMigrationStage: NSObject {
    open var label: String?
}

open class NSLightweightMigrationStage: NSMigrationStage {
    public init(_ versionChecksums: [String]) {}
    open var versionChecksums: [String] { [] }
}

open class NSCustomMigrationStage: NSMigrationStage {
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
    }
    open var currentModel: NSManagedObjectModelReference
    open var nextModel: NSManagedObjectModelReference
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
}

open class NSStagedMigrationManager: NSObject {
    public init(_ stages: [NSMigrationStage]) { self.stages = stages }
    open var stages: [NSMigrationStage]
    open var container: NSPersistentContainer? { nil }
}

public protocol NSFetchRequestResult: NSObjectProtocol {}

open class NSManagedObjectID: NSObject {
    open func uriRepresentation() -> URL { URL(fileURLWithPath: "/") }
}

open class NSManagedObject: NSObject, NSFetchRequestResult {
    open var objectID: NSManagedObjectID { NSManagedObjectID() }
    open func value(forKey key: String) -> Any? { nil }
    open func setValue(_ value: Any?, forKey key: String) {}
    open var managedObjectContext: NSManagedObjectContext? { nil }
    open func mutableSetValue(forKey key: String) -> NSMutableSet { NSMutableSet() }
}

open class NSEntityDescription: NSObject {
    open class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject { NSManagedObject() }
}

open class NSFetchRequest<ResultType: NSFetchRequestResult>: NSObject {
    public init(entityName: String) {}
    open var fetchLimit: Int = 0
    open var fetchOffset: Int = 0
    open var fetchBatchSize: Int = 0
}

open class NSManagedObjectContext: NSObject {
    open func performAndWait<T>(_ block: () throws -> T) rethrows -> T { try block() }
    open func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] where T: NSFetchRequestResult { [] }
    open var hasChanges: Bool { false }
    open func save() throws {}
    open func reset() {}
}

open class NSPersistentStoreDescription: NSObject {
    public init(url: URL) {}
    open var shouldMigrateStoreAutomatically: Bool = true
    open var shouldInferMappingModelAutomatically: Bool = true
    open func setOption(_ option: NSObject?, forKey key: String) {}
}

open class NSPersistentStore: NSObject {}

open class NSPersistentStoreCoordinator: NSObject {
    open class func metadataForPersistentStore(ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil) throws -> [String: Any] { [:] }
    open func persistentStore(for url: URL) -> NSPersistentStore? { nil }
    open func metadata(for store: NSPersistentStore) -> [String: Any] { [:] }
    open func finishDeferredLightweightMigration() throws {}
    open func finishDeferredLightweightMigrationTask() throws {}
    // The multi-pass driver (`chainplan passes --format swift`).
    public init(managedObjectModel model: NSManagedObjectModel) {}
    open func addPersistentStore(ofType storeType: String, configurationName configuration: String?, at storeURL: URL?,
                                 options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore { NSPersistentStore() }
    open func remove(_ store: NSPersistentStore) throws {}
    open func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL,
                                     sourceOptions: [AnyHashable: Any]? = nil, ofType storeType: String) throws {}
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {}
}

open class NSPersistentContainer: NSObject {
    open var persistentStoreDescriptions: [NSPersistentStoreDescription] = []
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator { NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel()) }
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {}
    open func newBackgroundContext() -> NSManagedObjectContext { NSManagedObjectContext() }
}

// The multi-pass driver (`chainplan passes --format swift`): NSMigrationManager and mapping models.
public let NSSQLitePragmasOption: String = "NSSQLitePragmasOption"
public let NSReadOnlyPersistentStoreOption: String = "NSReadOnlyPersistentStoreOption"


open class NSEntityMapping: NSObject {
    open var name: String!
}

open class NSMappingModel: NSObject {
    public override init() {}
    public init?(contentsOf url: URL?) { nil }
    open var entityMappings: [NSEntityMapping]! = []
}

// Foundation's key-value observing, which swift-corelibs-foundation lacks (Apple SDK signatures).
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
}

public struct NSKeyValueObservedChange<Value> {
    public let newValue: Value?
    public let oldValue: Value?
}

open class NSKeyValueObservation: NSObject {
    open func invalidate() {}
}

open class NSMigrationManager: NSObject {
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {}
    open var migrationProgress: Float { 0 }
    open func migrateStore(from sourceURL: URL, sourceType sStoreType: String, options sOptions: [AnyHashable: Any]? = nil, with mappings: NSMappingModel?,
                           toDestinationURL dURL: URL, destinationType dStoreType: String, destinationOptions dOptions: [AnyHashable: Any]? = nil) throws {}
    public func observe<Value>(_ keyPath: KeyPath<NSMigrationManager, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (NSMigrationManager, NSKeyValueObservedChange<Value>) -> Void) -> NSKeyValueObservation {
        NSKeyValueObservation()
    }
}
