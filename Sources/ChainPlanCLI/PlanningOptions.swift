import ArgumentParser
import ChainPlanKit

/// How a spec is read and planned: every command that reads a spec takes these (through
/// `InputOptions`, or directly when it names the spec itself, as `explain` does).
struct PlanningOptions: ParsableArguments {
    @Flag(name: .customLong("allow-outside"), help: "Allow the spec's model and mapping paths to point outside the spec's folder.")
    var allowOutside = false

    @Option(name: .customLong("max-spec-bytes"), help: "Refuse specs larger than this many bytes.")
    var maxSpecBytes: Int = 16 << 20

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "Rule configuration (severities per code, thresholds). Default: .chainplan.yml beside the spec, when present.",
        valueName: "file"))
    var config: String?

    @Flag(name: .customLong("deferred"), help: "The app passes NSPersistentStoreDeferredLightweightMigrationOptionKey (as 'deferredLightweightMigration: true' in the spec or configuration).")
    var deferred = false

    func planOptions() -> PlanOptions {
        var options = PlanOptions()
        options.maxSpecBytes = maxSpecBytes
        options.allowOutsideSpecDirectory = allowOutside
        options.deferredLightweightMigration = deferred
        return options
    }
}
