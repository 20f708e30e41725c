import SwiftDiagnostics
import SwiftIfConfig
import SwiftSyntax

/// The build configuration `#if` is evaluated under (swift-syntax's `SwiftIfConfig`): an app
/// built for a device of `os`, arm64, release (no `-D` condition but `conditions`), Swift 6; and
/// the name of the module the sources build, when stated, for names qualified by it (`MyApp.Trip`).
/// Whatever it does not know (`canImport` of a module outside Apple's SDK list, `hasFeature`,
/// `hasAttribute`) throws, so the `#if` cannot be decided: the reader then reports it (CP602)
/// instead of guessing.
package struct StatedConfiguration: BuildConfiguration, Sendable, Hashable {
    /// The target OS: `iOS`, `macOS`, `tvOS`, `watchOS` or `visionOS`.
    package var os: String
    /// The custom conditions set (`-D NAME`).
    package var conditions: Set<String>
    /// The module the sources belong to (`-module-name`), when stated: `MyApp.Trip` is then the
    /// top-level `Trip` of the sources. Unstated, such a name is another module's as far as the
    /// reader knows.
    package var moduleName: String?

    package init(os: String = "iOS", conditions: Set<String> = [], moduleName: String? = nil) {
        self.os = os
        self.conditions = conditions
        self.moduleName = moduleName
    }

    /// The default: an iOS release build.
    package static let `default` = StatedConfiguration()

    /// As shown in findings: `os(iOS), arm64, no -D conditions`.
    package var summary: String {
        "os(\(os)), arm64, " + (conditions.isEmpty ? "no -D conditions" : "-D " + conditions.sorted().joined(separator: ", -D "))
    }

    /// The modules an app for `os` can import from Apple's SDK (and the Swift toolchain).
    static let sdkModules: Set<String> = ["Swift", "Foundation", "SwiftData", "CoreData", "SwiftUI", "Combine", "Observation", "CloudKit",
                                          "CoreLocation", "MapKit", "UniformTypeIdentifiers", "OSLog", "os", "Dispatch", "CoreGraphics",
                                          "CoreTransferable", "Charts", "WidgetKit", "AppIntents", "StoreKit", "UserNotifications", "Photos", "PhotosUI",
                                          "AVFoundation", "CryptoKit", "Security", "Network", "XCTest", "Testing"]
    static let iOSModules: Set<String> = ["UIKit", "ActivityKit", "ARKit"]
    static let macOSModules: Set<String> = ["AppKit"]

    struct Unknown: Error, CustomStringConvertible {
        var description: String
    }

    package func isCustomConditionSet(name: String) throws -> Bool { conditions.contains(name) }
    package func hasFeature(name: String) throws -> Bool { throw Unknown(description: "hasFeature(\(name)) is not stated") }
    package func hasAttribute(name: String) throws -> Bool { throw Unknown(description: "hasAttribute(\(name)) is not stated") }

    package func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
        guard let module = importPath.first?.1 else { return false }
        if Self.sdkModules.contains(module) { return true }
        if Self.iOSModules.contains(module) { return os != "macOS" }
        if Self.macOSModules.contains(module) { return os == "macOS" }
        throw Unknown(description: "canImport(\(module)) depends on the app's packages")
    }

    package func isActiveTargetOS(name: String) throws -> Bool {
        name == os || (name == "OSX" && os == "macOS") || (name == "xrOS" && os == "visionOS")
    }

    package func isActiveTargetArchitecture(name: String) throws -> Bool { name == "arm64" }
    package func isActiveTargetEnvironment(name: String) throws -> Bool { false }
    package func isActiveTargetRuntime(name: String) throws -> Bool { name == "_ObjC" }
    package func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
    package func isActiveTargetObjectFileFormat(name: String) throws -> Bool { name == "MachO" }
    package var targetPointerBitWidth: Int { 64 }
    package var targetAtomicBitWidths: [Int] { [8, 16, 32, 64, 128] }
    package var endianness: Endianness { .little }
    package var languageVersion: VersionTuple { VersionTuple(6, 0) }
    package var compilerVersion: VersionTuple { VersionTuple(6, 2) }

    /// The clause of `node` that is active, nil when none is; a failure with the reason when the
    /// configuration cannot decide it.
    package func activeClause(of node: IfConfigDeclSyntax) -> Result<IfConfigClauseSyntax?, Undecided> {
        let (clause, diagnostics) = node.activeClause(in: self)
        if let error = diagnostics.first(where: { $0.diagMessage.severity == .error }) {
            return .failure(Undecided(reason: error.message))
        }
        return .success(clause)
    }

    /// Why an `#if` cannot be decided.
    package struct Undecided: Error {
        package var reason: String
    }
}
