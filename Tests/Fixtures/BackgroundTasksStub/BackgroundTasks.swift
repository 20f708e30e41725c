// The BackgroundTasks declarations the code `chainplan stage --format swift --deferred` writes
// uses, with the iOS 13+ SDK's names and Swift signatures (developer.apple.com/documentation/
// backgroundtasks), so tests can type-check that code on Linux (compiled as a module named
// BackgroundTasks). Bodies are placeholders: nothing here runs.
import Foundation

open class BGTask: NSObject {
    open var identifier: String { "" }
    open var expirationHandler: (() -> Void)?
    open func setTaskCompleted(success: Bool) {}
}

open class BGProcessingTask: BGTask {}

open class BGTaskRequest: NSObject {
    open var identifier: String { "" }
    open var earliestBeginDate: Date?
}

open class BGProcessingTaskRequest: BGTaskRequest {
    public init(identifier: String) {}
    open var requiresNetworkConnectivity: Bool = false
    open var requiresExternalPower: Bool = false
}

open class BGTaskScheduler: NSObject {
    open class var shared: BGTaskScheduler { BGTaskScheduler() }
    @discardableResult
    open func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping (BGTask) -> Void) -> Bool { true }
    open func submit(_ taskRequest: BGTaskRequest) throws {}
}
