import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanPlanning
import ChainPlanSwiftSource
import Foundation

/// The build configuration SwiftData sources are read under: the target OS and the `-D`
/// conditions of the build that ships (default: an iOS release build, no conditions), and the
/// module name the sources build, when stated.
struct SwiftConfigurationOptions: ParsableArguments {
    enum TargetOS: String, ExpressibleByArgument, CaseIterable {
        case iOS, macOS, tvOS, watchOS, visionOS
    }

    @Option(name: .customLong("swift-os"), help: "SwiftData sources: the OS '#if os(…)' is decided for.")
    var os: TargetOS = .iOS

    @Option(name: .customLong("define"), help: ArgumentHelp("SwiftData sources: a custom condition set for '#if' (as swiftc -D); repeat for several.",
                                                           valueName: "name"))
    var conditions: [String] = []

    @Option(name: .customLong("module-name"), help: ArgumentHelp(
        "SwiftData sources: the module they build (as swiftc -module-name), so that names qualified by it ('MyApp.Trip') are read.",
        valueName: "name"))
    var moduleName: String?

    var configuration: StatedConfiguration {
        StatedConfiguration(os: os.rawValue, conditions: Set(conditions), moduleName: moduleName)
    }
}

/// How a spec is read: where its paths may point, how large it may be, and the rule configuration
/// that governs it. Every command that reads a spec takes these (through `PlanningOptions`, or
/// directly when no chain is classified, as in `passes`).
struct SpecAccessOptions: ParsableArguments {
    @Flag(name: .customLong("allow-outside"), help: "Allow the spec's model and mapping paths to point outside the spec's folder.")
    var allowOutside = false

    @Option(name: .customLong("max-spec-bytes"), help: "Refuse specs larger than this many bytes.")
    var maxSpecBytes: Int = 16 << 20

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "Rule configuration (severities per code, thresholds). Default: .chainplan.yml beside the spec, when present.",
        valueName: "file"))
    var config: String?

    @OptionGroup var swift: SwiftConfigurationOptions

    /// `config` as a URL, the form the planner takes.
    var configURL: URL? { config.map { URL(fileURLWithPath: $0) } }

    func planOptions() -> PlanOptions {
        var options = PlanOptions()
        options.maxSpecBytes = maxSpecBytes
        options.allowOutsideSpecDirectory = allowOutside
        options.swiftConfiguration = swift.configuration
        return options
    }
}

/// How a spec is read and planned: every command that classifies a chain takes these (through
/// `InputOptions`, or directly when it names the spec itself, as `explain` does).
struct PlanningOptions: ParsableArguments {
    @OptionGroup var access: SpecAccessOptions

    var configURL: URL? { access.configURL }

    @Flag(name: .customLong("deferred"), help: "The app passes NSPersistentStoreDeferredLightweightMigrationOptionKey (as 'deferredLightweightMigration: true' in the spec or configuration).")
    var deferred = false

    func planOptions() -> PlanOptions {
        var options = access.planOptions()
        options.deferredLightweightMigration = deferred
        return options
    }
}
