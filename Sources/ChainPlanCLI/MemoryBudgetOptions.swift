import ArgumentParser

/// The memory a heavyweight step may use: `dry-run` raises CP303 above it, `passes` packs its
/// passes under it. One budget, so one option; without it both take `heavyweight-memory-mb` from
/// the rule configuration (and the dry run then 100 MB).
struct MemoryBudgetOptions: ParsableArguments {
    static let maximumMB = 1 << 20

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp(
        "The memory a heavyweight step may use (dry-run: CP303 above it; passes: packed under it). Default: heavyweight-memory-mb in the configuration, else 100 for dry-run.",
        valueName: "MB"))
    var memoryLimit: Int?

    /// The spelling `passes` first had, kept working but hidden (ArgumentParser lists every name
    /// of an option, so an alias cannot be hidden on its own; a second, hidden option is the way).
    @Option(name: .customLong("max-memory-mb"), help: .hidden)
    var legacyMaxMemoryMB: Int?

    /// The budget in bytes, from either spelling; nil when neither is given.
    var bytes: Int? { (memoryLimit ?? legacyMaxMemoryMB).map { $0 << 20 } }

    func validate() throws {
        guard memoryLimit == nil || legacyMaxMemoryMB == nil else {
            throw ValidationError("--memory-limit and --max-memory-mb are one option; give it once")
        }
        if let megabytes = memoryLimit ?? legacyMaxMemoryMB, megabytes <= 0 || megabytes > Self.maximumMB {
            throw ValidationError("--memory-limit takes 1 to \(Self.maximumMB) MB")
        }
    }
}
