import Foundation

/// The environment variables chainplan reads (`NO_COLOR`, `GITHUB_STEP_SUMMARY`): the process's,
/// or, inside `CLIEnvironment.$overrides.withValue`, exactly the given ones (in-process tests
/// inject them so that they need not change the process's environment and run serialized).
enum CLIEnvironment {
    @TaskLocal static var overrides: [String: String]?

    static func value(_ name: String) -> String? {
        if let overrides { return overrides[name] }
        return ProcessInfo.processInfo.environment[name]
    }
}
